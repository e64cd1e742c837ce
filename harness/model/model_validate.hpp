#pragma once
// What the model covers (docs/model.md, "What it does not cover"): a
// script and setup outside it are refused, never guessed.
#include "model.hpp"

namespace flushcheck::detail {

/// Throws usage_error naming the first thing the model does not cover:
/// close, the fd ops, fork and threads, the locking ops, a late
/// sync_with_stdio or setvbuf, and the faults it does not port.
void validate(const model_setup& setup, const script& s);

}  // namespace flushcheck::detail
