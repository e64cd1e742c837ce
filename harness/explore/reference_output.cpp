#include "reference_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>

#include "error.hpp"
#include "retry_eintr.hpp"
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
    ssize_t n = retry_eintr([&] {
      return ::pwrite(fd_.get(), bytes.data() + done, bytes.size() - done,
                      static_cast<off_t>(size_ + done));
    });
    if (n <= 0) throw_errno("spool the reference output");
    done += static_cast<std::size_t>(n);
  }
  size_ += bytes.size();
  for (std::string_view rest = bytes; !rest.empty();) {  // each line's key
    const std::size_t nl = rest.find('\n');
    const std::string_view piece = rest.substr(0, nl);
    line_hash_.update(piece);
    line_size_ += piece.size();
    if (nl == std::string_view::npos) break;
    keys_.push_back({line_hash_.digest(), line_size_});
    line_hash_.reset();
    line_size_ = 0;
    rest.remove_prefix(nl + 1);
  }
  lines_ = keys_.size();
  if (!bytes.empty()) ends_in_newline_ = bytes.back() == '\n';
}

std::vector<line_key> reference_output::keys() const {
  std::vector<line_key> out = keys_;
  if (!ends_in_newline_) out.push_back({line_hash_.digest(), line_size_});
  return out;
}

std::string reference_output::read(std::uint64_t at, std::size_t n) const {
  std::string out(static_cast<std::size_t>(std::min<std::uint64_t>(n, size_ - std::min(at, size_))),
                  '\0');
  for (std::size_t done = 0; done < out.size();) {
    ssize_t r = retry_eintr([&] {
      return ::pread(fd_.get(), out.data() + done, out.size() - done,
                     static_cast<off_t>(at + done));
    });
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

line_match::line_match(const reference_output& ref, const keep_policy& keep)
    : ref_(ref),
      keys_(ref.keys()),
      cap_(keep.what == keep_policy::kind::all ? SIZE_MAX
                                               : std::max<std::size_t>(2 * keep.bytes, 4096)),
      budget_(keep.what == keep_policy::kind::all ? SIZE_MAX : keep.bytes),
      torn_(keep) {
  for (const auto& k : keys_) ++ahead_[k.hash ^ k.size];
}

void line_match::feed(std::string_view bytes) {
  for (std::string_view rest = bytes; !rest.empty();) {
    const std::size_t nl = rest.find('\n');
    const std::string_view piece = rest.substr(0, nl);
    hash_.update(piece);
    size_ += piece.size();
    text_.append(piece.substr(0, cap_ - std::min(cap_, text_.size())));
    if (nl == std::string_view::npos) {
      ended_in_newline_ = false;
      return;
    }
    ended_in_newline_ = true;
    on_line();
    rest.remove_prefix(nl + 1);
  }
}

/// A line arrived (its key in hash_ and size_): the next reference line, a
/// torn one, or one further on, which makes the reference lines before it lost.
void line_match::on_line() {
  const line_key got{hash_.digest(), size_};
  for (;;) {
    if (next_ < keys_.size() && keys_[next_] == got) {
      ++survived_;
      --ahead_[got.hash ^ got.size];
      next_at_ += got.size + 1;
      ++next_;
      break;
    }
    const auto it = ahead_.find(got.hash ^ got.size);
    if (it == ahead_.end() || it->second == 0) {  // no line still to come: torn
      torn_.append(text_);
      torn_.append("\n");
      break;
    }
    lose_next();
  }
  hash_.reset();
  size_ = 0;
  text_.clear();
}

/// The next reference line did not arrive.
void line_match::lose_next() {
  const line_key& k = keys_[next_];
  if (++lost_lines_ == 1 || budget_ > 0) {  // the first lost line, and what KEEP holds
    const std::size_t n = static_cast<std::size_t>(
        std::min<std::uint64_t>(k.size, std::max<std::size_t>(budget_, 256)));
    lost_.push_back(ref_.read(next_at_, n));
    budget_ -= std::min(budget_, n + 1);
  }
  --ahead_[k.hash ^ k.size];
  next_at_ += k.size + 1;
  ++next_;
}

void line_match::finish() {
  if (!ended_in_newline_) on_line();
  while (next_ < keys_.size()) lose_next();
}

std::string line_match::torn() {
  std::string t = torn_.take_data();
  // The last piece had no newline of its own.
  if (!ended_in_newline_ && !t.empty() && t.back() == '\n') t.pop_back();
  return t;
}

}  // namespace flushcheck::detail
