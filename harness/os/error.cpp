#include "error.hpp"

#include <cerrno>

namespace flushcheck {

void throw_error(std::error_code ec, const std::string& what) { throw harness_error(ec, what); }

void throw_errno(const std::string& what) { throw_error({errno, std::generic_category()}, what); }

}  // namespace flushcheck
