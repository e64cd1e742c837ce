#pragma once
/// A cut of an exploration as bytes, from the worker process that ran it to
/// the exploration (workers.hpp): every field of it.
#include <string>

#include "explore.hpp"

namespace flushcheck {

std::string encode_cut(const explored_cut& c);
/// Throws harness_error for bytes that are not an encoded cut.
explored_cut decode_cut(const std::string& bytes);

}  // namespace flushcheck
