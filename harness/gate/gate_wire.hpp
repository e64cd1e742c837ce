#pragma once
/// A gate's results as bytes, from the worker process that ran them to the
/// CLI (workers.hpp): a [[case]]'s result, and a check's, which a property
/// case's outcome carries too (outcome_wire.hpp).
#include <string>

#include "gate_file.hpp"
#include "wire.hpp"

namespace flushcheck {

void put_check(wire_writer& w, const gate_check_result& c);
/// Throws harness_error for bytes that are not a check's.
gate_check_result read_check(wire_reader& r);

std::string encode_case_result(const gate_case_result& c);
/// Throws harness_error for bytes that are not an encoded result.
gate_case_result decode_case_result(const std::string& bytes);

}  // namespace flushcheck
