#include "reference_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>

#include "error.hpp"
#include "temporary.hpp"

namespace flushcheck::detail {

reference_output::reference_output() {
  std::string templ = temp_dir() + "/flushcheck-explore-XXXXXX";
  int fd = ::mkostemp(templ.data(), O_CLOEXEC);
  if (fd < 0) throw_errno("mkostemp " + templ);
  fd_.reset(fd);
  ::unlink(templ.c_str());  // gone with its last fd, however the harness ends
}

void reference_output::append(std::string_view bytes) {
  for (std::size_t done = 0; done < bytes.size();) {
    ssize_t n = ::pwrite(fd_.get(), bytes.data() + done, bytes.size() - done,
                         static_cast<off_t>(size_ + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw_errno("spool the reference output");
    done += static_cast<std::size_t>(n);
  }
  size_ += bytes.size();
  lines_ += static_cast<std::uint64_t>(std::count(bytes.begin(), bytes.end(), '\n'));
  if (!bytes.empty()) ends_in_newline_ = bytes.back() == '\n';
}

std::string reference_output::read(std::uint64_t at, std::size_t n) const {
  std::string out(static_cast<std::size_t>(std::min<std::uint64_t>(n, size_ - std::min(at, size_))),
                  '\0');
  for (std::size_t done = 0; done < out.size();) {
    ssize_t r =
        ::pread(fd_.get(), out.data() + done, out.size() - done, static_cast<off_t>(at + done));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) throw_errno("read the spooled reference output");
    done += static_cast<std::size_t>(r);
  }
  return out;
}

std::vector<std::string> reference_output::lines_from(std::uint64_t at, std::size_t budget) const {
  std::vector<std::string> out;
  std::string line;
  for (std::uint64_t pos = at; pos < size_ && budget > 0;) {
    const std::string block = read(pos, 65536);
    for (char ch : block) {
      if (ch == '\n') {
        out.push_back(std::move(line));
        line.clear();
        if (budget <= out.back().size() + 1) return out;
        budget -= out.back().size() + 1;
      } else if (line.size() < budget) {
        line += ch;
      }
    }
    pos += block.size();
  }
  if (!line.empty() && budget > 0) out.push_back(std::move(line));  // unterminated last line
  return out;
}

void prefix_match::feed(std::string_view bytes) {
  total_ += bytes.size();
  if (diverged_) return keep_torn(bytes);
  const std::uint64_t at = total_ - bytes.size();
  const std::string want = ref_.read(at, bytes.size());
  const auto [mine, theirs] = std::mismatch(bytes.begin(), bytes.end(), want.begin(), want.end());
  const auto same = static_cast<std::size_t>(mine - bytes.begin());
  take_matched(at, bytes.substr(0, same));
  if (same < bytes.size()) {
    diverged_ = true;
    keep_torn(bytes.substr(same));
  }
}

/// Bytes equal to the reference's, from offset AT: each newline completes
/// one more line.
void prefix_match::take_matched(std::uint64_t at, std::string_view bytes) {
  std::size_t from = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i)
    if (bytes[i] == '\n') {
      ++lines_;
      whole_ = at + i + 1;
      torn_.clear();
      from = i + 1;
    }
  keep_torn(bytes.substr(from));
}

void prefix_match::keep_torn(std::string_view bytes) {
  const std::size_t room = budget_ - std::min(budget_, torn_.size());
  torn_.append(bytes.substr(0, std::min(room, bytes.size())));
}

}  // namespace flushcheck::detail
