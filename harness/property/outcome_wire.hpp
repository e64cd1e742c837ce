#pragma once
/// A case's outcome as bytes, from the worker process that ran it to the
/// search (workers.hpp): every field but the observation, which a search
/// keeps only for the picture it draws itself.
#include <string>

#include "property_run.hpp"

namespace flushcheck {

std::string encode_outcome(const workload_outcome& out);
/// Throws harness_error for bytes that are not an encoded outcome.
workload_outcome decode_outcome(const std::string& bytes);

}  // namespace flushcheck
