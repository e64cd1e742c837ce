#pragma once
/// A conformance case's result as bytes, from the worker process that ran
/// it to the matrix (workers.hpp): its case by id, its verdict and whether
/// it was asserted.
#include <map>
#include <string>

#include "conformance.hpp"

namespace flushcheck {

std::string encode_conformance_result(const case_result& r);
/// The result in BYTES, its case the one CASES has under its id. Throws
/// harness_error for bytes that are not an encoded result, or name no case
/// of CASES.
case_result decode_conformance_result(const std::string& bytes,
                                      const std::map<std::string, property_case>& cases);

}  // namespace flushcheck
