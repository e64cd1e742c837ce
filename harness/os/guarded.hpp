#pragma once
/// A value shared between threads that is only reachable with its mutex
/// held (in the style of folly's Synchronized): what is guarded is a type,
/// not a comment beside some fields.
#include <mutex>
#include <utility>

namespace flushcheck {

template <class T>
class guarded {
 public:
  /// FN(T&), with the mutex held; what FN returns.
  template <class F>
  decltype(auto) with(F&& fn) {
    const std::lock_guard<std::mutex> lock(mu_);
    return std::forward<F>(fn)(value_);
  }
  template <class F>
  decltype(auto) with(F&& fn) const {
    const std::lock_guard<std::mutex> lock(mu_);
    return std::forward<F>(fn)(std::as_const(value_));
  }

 private:
  mutable std::mutex mu_;
  T value_{};
};

}  // namespace flushcheck
