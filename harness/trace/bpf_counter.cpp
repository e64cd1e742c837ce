// The eBPF counting backend's user half: loads bpf/write_counter.bpf.c once
// per process, tells it how to read each traced call (from the one table),
// and turns a run's map entries into a trace_summary.
#include "bpf_counter.hpp"

#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string_view>
#include <tuple>
#include <vector>

#include "error.hpp"

#ifdef FLUSHCHECK_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/magic.h>

#include "traced_calls.hpp"
#include "write_counter.h"
#include "write_counter.skel.h"
#endif

namespace flushcheck {

#ifndef FLUSHCHECK_HAVE_BPF

std::string bpf_unavailable_reason() {
  return "this flushcheck was built without eBPF (it needs clang, bpftool and libbpf-dev at "
         "build time)";
}
std::string bpf_reads_by() { return ""; }
bpf_attachment::bpf_attachment() {
  throw harness_error({ENOSYS, std::generic_category()}, bpf_unavailable_reason());
}
bpf_attachment::~bpf_attachment() = default;
bpf_floor_attachment::bpf_floor_attachment() {
  throw harness_error({ENOSYS, std::generic_category()}, bpf_unavailable_reason());
}
bpf_floor_attachment::~bpf_floor_attachment() = default;
bpf_counters::bpf_counters(pid_t, file_id out, file_id err) : run_(0), out_(out), err_(err) {}
bpf_counters::~bpf_counters() = default;
trace_summary bpf_counters::read() const { return {}; }

#else

namespace {

/// How the kernel half reads CALL (write_counter.h), from its table entry.
fc_call call_entry(const traced_call_info& c) {
  fc_call e{};
  e.counted = 1;
  e.fd_arg = static_cast<__s8>(c.fd_arg);
  e.bytes = c.bytes == byte_count::arg      ? FC_BYTES_ARG
            : c.bytes == byte_count::iovec  ? FC_BYTES_IOVEC
            : c.bytes == byte_count::msghdr ? FC_BYTES_MSGHDR
            : c.bytes == byte_count::result ? FC_BYTES_RESULT
                                            : FC_BYTES_NONE;
  e.bytes_arg = static_cast<__u8>(c.bytes_arg);
  e.dupfd_only = c.call == traced_call::fcntl_dupfd;
  return e;
}

/// libbpf's messages, kept (not printed) so that a refusal can say why.
std::string& libbpf_log() {
  static std::string log;
  return log;
}

int keep_message(enum libbpf_print_level level, const char* format, va_list args) {
  if (level == LIBBPF_DEBUG) return 0;
  char line[512];
  const int n = std::vsnprintf(line, sizeof line, format, args);
  if (n > 0 && libbpf_log().size() < 4096) libbpf_log() += line;
  return n;
}

/// The last line libbpf logged, as the reason of a refusal.
std::string last_libbpf_line() {
  std::string log = libbpf_log();
  while (!log.empty() && log.back() == '\n') log.pop_back();
  return log.substr(log.rfind('\n') == std::string::npos ? 0 : log.rfind('\n') + 1);
}

/// The object, loaded once per process, or why it could not be. It is
/// attached only while a run counts with it: attached, its raw tracepoints
/// put every syscall of every process on the machine on the kernel's slow
/// path (about 0.2 us each here), plain runs and other backends' included.
struct loaded_object {
  write_counter_bpf* skel = nullptr;
  std::string refusal;
  std::mutex lock;
  int active = 0;       ///< runs counting now: attached while not 0
  bool compat = false;  ///< the _compat pair of programs was loaded
};

/// Is PROG one of the floor's empty programs (fc_floor_*)?
bool is_floor(const bpf_program* prog) {
  return std::string_view(bpf_program__name(prog)).starts_with("fc_floor_");
}

/// Turns off autoload for the pair of programs not chosen and for the
/// floor's, so that only the chosen pair loads (with fork and exit): COMPAT
/// chooses the pair that reads by helper calls.
void autoload_only_pair(write_counter_bpf* skel, bool compat) {
  bpf_program__set_autoload(compat ? skel->progs.fc_sys_enter : skel->progs.fc_sys_enter_compat,
                            false);
  bpf_program__set_autoload(compat ? skel->progs.fc_sys_exit : skel->progs.fc_sys_exit_compat,
                            false);
  bpf_program* prog = nullptr;
  bpf_object__for_each_program(prog, skel->obj) {
    if (is_floor(prog)) bpf_program__set_autoload(prog, false);
  }
}

/// Opens and loads the object with one of its two pairs of programs
/// (write_counter.bpf.c): COMPAT, the pair that reads by helper calls.
write_counter_bpf* open_and_load(bool compat, std::string& refusal) {
  write_counter_bpf* skel = write_counter_bpf__open();
  if (skel == nullptr) {
    refusal = std::string("cannot open the BPF object: ") + std::strerror(errno);
    return nullptr;
  }
  autoload_only_pair(skel, compat);
  if (write_counter_bpf__load(skel) == 0) return skel;
  refusal = "the kernel refused to load it: " + std::string(std::strerror(errno)) + " (" +
            last_libbpf_line() + "; it needs CAP_BPF and CAP_PERFMON, or root)";
  write_counter_bpf__destroy(skel);
  return nullptr;
}

/// The plain-load pair where the kernel has bpf_rdonly_cast (6.2 and
/// later), else the compat pair; FLUSHCHECK_BPF_COMPAT=1 picks the compat pair.
write_counter_bpf* load_either(bool& compat, std::string& refusal) {
  const char* forced = std::getenv("FLUSHCHECK_BPF_COMPAT");
  compat = forced != nullptr && std::string(forced) == "1";
  if (!compat)
    if (write_counter_bpf* skel = open_and_load(false, refusal)) return skel;
  compat = true;
  return open_and_load(true, refusal);
}

/// Tells the kernel half how to read each traced call: "", or why not.
std::string fill_call_table(write_counter_bpf* skel) {
  for (const auto& c : traced_calls) {
    const auto nr = static_cast<__u32>(c.nr);
    const fc_call e = call_entry(c);
    if (bpf_map__update_elem(skel->maps.calls, &nr, sizeof nr, &e, sizeof e, BPF_ANY) != 0)
      return std::string("cannot fill the call table: ") + std::strerror(errno);
  }
  return "";
}

std::string load_into(loaded_object& o) {
  libbpf_set_print(keep_message);
  std::string refused;
  o.skel = load_either(o.compat, refused);
  if (o.skel == nullptr) return refused;
  if (std::string why = fill_call_table(o.skel); !why.empty()) return why;
  if (write_counter_bpf__attach(o.skel) != 0) {
    const std::string why = std::strerror(errno);
    return "the kernel refused to attach it: " + why + " (" + last_libbpf_line() + ")";
  }
  write_counter_bpf__detach(o.skel);  // it attaches: until a run needs it, it stays off
  return "";
}

loaded_object& object() {
  static loaded_object o;
  static std::once_flag loaded;
  std::call_once(loaded, [] {
    if (::access("/sys/kernel/btf/vmlinux", R_OK) != 0)
      o.refusal = "the kernel has no BTF (/sys/kernel/btf/vmlinux: CONFIG_DEBUG_INFO_BTF)";
    else
      o.refusal = load_into(o);
  });
  return o;
}

/// The kernel's dev_t (major << 20 | minor) as stat(2)'s st_dev.
dev_t user_dev(std::uint64_t kernel_dev) {
  return makedev(static_cast<unsigned>(kernel_dev >> 20),
                 static_cast<unsigned>(kernel_dev & 0xfffff));
}

/// "pipe:[ino]" and "socket:[ino]" as /proc names them; a file by its last
/// path component, device and inode: "app.log (dev 254:0 inode 1234)".
std::string name_of(const fc_key& k, std::uint64_t magic, const char* name) {
  const std::string ino = std::to_string(k.ino);
  if (magic == PIPEFS_MAGIC) return "pipe:[" + ino + "]";
  if (magic == SOCKFS_MAGIC) return "socket:[" + ino + "]";
  const dev_t d = user_dev(k.dev);
  return std::string(name, strnlen(name, sizeof(fc_counts::name))) + " (dev " +
         std::to_string(major(d)) + ":" + std::to_string(minor(d)) + " inode " + ino + ")";
}

/// Every key of RUN in the counts map, each once: a key another run deletes
/// while this walks the map sends the walk back to the map's first key.
std::vector<fc_key> keys_of(std::uint32_t run) {
  std::vector<fc_key> keys;
  std::set<std::tuple<std::uint32_t, std::uint64_t, std::uint64_t, std::uint64_t> >
      seen;  // nr, dev, ino, gen
  const bpf_map* m = object().skel->maps.counts;
  fc_key k{}, next{};
  const void* prev = nullptr;
  while (bpf_map__get_next_key(m, prev, &next, sizeof next) == 0) {
    if (next.run == run && seen.emplace(next.nr, next.dev, next.ino, next.gen).second)
      keys.push_back(next);
    k = next;
    prev = &k;
  }
  return keys;
}

/// One CPU's counts C added to SUM; the name is the first CPU's that has one.
void add_cpu_counts(fc_counts& sum, const fc_counts& c) {
  sum.calls += c.calls;
  sum.bytes += c.bytes;
  for (std::size_t i = 0; i < 32; ++i) sum.sizes[i] += c.sizes[i];
  sum.fd_mask |= c.fd_mask;
  sum.magic |= c.magic;
  if (sum.name[0] == '\0') std::memcpy(sum.name, c.name, sizeof sum.name);
}

/// The counts of KEY summed over the CPUs.
fc_counts summed(const fc_key& key) {
  std::vector<fc_counts> per_cpu(static_cast<std::size_t>(libbpf_num_possible_cpus()));
  fc_counts sum{};
  if (bpf_map__lookup_elem(object().skel->maps.counts, &key, sizeof key, per_cpu.data(),
                           per_cpu.size() * sizeof(fc_counts), 0) != 0)
    return sum;
  for (const auto& c : per_cpu) add_cpu_counts(sum, c);
  return sum;
}

void add_to(destination_counters& d, traced_call call, const fc_counts& c) {
  const auto n = static_cast<std::int64_t>(c.calls);
  d.calls[static_cast<std::size_t>(call)] += n;
  if (is_write_family(call)) d.write_calls += n;
  d.bytes += static_cast<std::int64_t>(c.bytes);
  for (std::size_t i = 0; i < 32; ++i) d.size_histogram[i] += static_cast<std::int64_t>(c.sizes[i]);
  for (int fd = 0; fd < 64; ++fd)
    if ((c.fd_mask >> fd & 1U) != 0 && std::find(d.fds.begin(), d.fds.end(), fd) == d.fds.end())
      d.fds.push_back(fd);
}

/// A run's destinations, each a file by device and inode, and the inode's
/// generation (a file given an unlinked one's inode is another).
using files_counts = std::map<std::pair<file_id, std::uint64_t>, destination_counters>;

/// RUN's counts per destination file; every call, with a destination or
/// not, is added to T's totals.
files_counts counts_by_file(std::uint32_t run, trace_summary& t) {
  files_counts by_file;
  for (const fc_key& k : keys_of(run)) {
    const auto call = traced_call_of(static_cast<long>(k.nr));
    if (!call) continue;
    const fc_counts c = summed(k);
    t.totals[static_cast<std::size_t>(*call)] += static_cast<std::int64_t>(c.calls);
    if (k.dev == 0 && k.ino == 0) continue;  // no open destination
    const file_id id{user_dev(k.dev), static_cast<ino_t>(k.ino)};
    auto& d = by_file[{id, k.gen}];
    if (d.what.empty()) d.what = name_of(k, c.magic, c.name);
    add_to(d, *call, c);
  }
  return by_file;
}

/// BY_FILE's destinations into T, each with its role (OUT and ERR are the
/// standard streams' files) and its fds sorted; the standard streams' first.
void add_destinations(trace_summary& t, files_counts& by_file, file_id out, file_id err) {
  for (auto& [file, d] : by_file) {
    const bool o = file.first == out, e = file.first == err;
    d.role = role_of(o, e);
    std::sort(d.fds.begin(), d.fds.end());
    t.destinations.push_back(std::move(d));
  }
  std::stable_sort(t.destinations.begin(), t.destinations.end(), [](const auto& a, const auto& b) {
    return a.role != stream_role::none && b.role == stream_role::none;
  });
}

std::atomic<std::uint32_t> next_run{1};

}  // namespace

std::string bpf_unavailable_reason() { return object().refusal; }

std::string bpf_reads_by() {
  if (!object().refusal.empty()) return "";
  return object().compat ? "helper calls" : "plain loads";
}

bpf_attachment::bpf_attachment() {
  loaded_object& o = object();
  if (!o.refusal.empty())
    throw harness_error({ENOTSUP, std::generic_category()}, "eBPF: " + o.refusal);
  const std::lock_guard<std::mutex> hold(o.lock);
  if (o.active == 0 && write_counter_bpf__attach(o.skel) != 0)
    throw_errno("eBPF: attaching the counters (" + last_libbpf_line() + ")");
  ++o.active;
}

/// The last attachment to end detaches the object.
bpf_attachment::~bpf_attachment() {
  loaded_object& o = object();
  const std::lock_guard<std::mutex> hold(o.lock);
  if (--o.active == 0) write_counter_bpf__detach(o.skel);
}

bpf_floor_attachment::bpf_floor_attachment() {
  if (std::string why = bpf_unavailable_reason(); !why.empty())
    throw harness_error({ENOTSUP, std::generic_category()}, "eBPF: " + why);
  write_counter_bpf* skel = write_counter_bpf__open();
  if (skel == nullptr) throw_errno("eBPF: opening the floor's object");
  bpf_program* prog = nullptr;
  bpf_object__for_each_program(prog, skel->obj) {
    bpf_program__set_autoload(prog, is_floor(prog));  // the floor's alone
  }
  if (write_counter_bpf__load(skel) != 0 || write_counter_bpf__attach(skel) != 0) {
    const int e = errno;
    write_counter_bpf__destroy(skel);
    errno = e;
    throw_errno("eBPF: the floor's empty programs (" + last_libbpf_line() + ")");
  }
  skel_ = skel;
}

bpf_floor_attachment::~bpf_floor_attachment() {
  write_counter_bpf__destroy(static_cast<write_counter_bpf*>(skel_));
}

bpf_counters::bpf_counters(pid_t pid, file_id out, file_id err)
    : run_(next_run++), out_(out), err_(err) {
  const auto tgid = static_cast<std::uint32_t>(pid);
  if (bpf_map__update_elem(object().skel->maps.tracked, &tgid, sizeof tgid, &run_, sizeof run_,
                           BPF_ANY) != 0)
    throw_errno("eBPF: tracking pid " + std::to_string(pid));
  lost_at_start_ = object().skel->bss->lost;
}

/// Forgets the run's counts and processes (a process that outlives the run
/// is counted no more).
bpf_counters::~bpf_counters() {
  for (const fc_key& k : keys_of(run_))
    bpf_map__delete_elem(object().skel->maps.counts, &k, sizeof k, 0);
  const bpf_map* tracked = object().skel->maps.tracked;
  std::uint32_t key = 0, next = 0, run = 0;
  std::vector<std::uint32_t> ours;
  for (const void* prev = nullptr; bpf_map__get_next_key(tracked, prev, &next, sizeof next) == 0;
       key = next, prev = &key)
    if (bpf_map__lookup_elem(tracked, &next, sizeof next, &run, sizeof run, 0) == 0 && run == run_)
      ours.push_back(next);
  for (std::uint32_t t : ours) bpf_map__delete_elem(tracked, &t, sizeof t, 0);
}

trace_summary bpf_counters::read() const {
  const std::uint64_t lost = object().skel->bss->lost - lost_at_start_;
  if (lost != 0)  // never a count that is only roughly right
    throw harness_error({ENOSPC, std::generic_category()},
                        "eBPF: " + std::to_string(lost) + " calls not counted: a map was full");
  trace_summary t;
  t.backend = "bpf";
  files_counts by_file = counts_by_file(run_, t);
  add_destinations(t, by_file, out_, err_);
  return t;
}

#endif

}  // namespace flushcheck
