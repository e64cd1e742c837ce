// The matrix agrees with hand-checks: small programs written apart from the
// script targets (tests/handcheck/), built with each toolchain set, run
// under the harness on a pipe, must show what the matrix says of that set.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <sstream>

#include "conformance.hpp"
#include "run.hpp"

namespace flushcheck {
namespace {

struct toolchain {
  std::string name;
  std::string dir;  // "" for the default set (CMake-built targets)
};

std::vector<toolchain> toolchains() {
  std::vector<toolchain> out = {{"default", ""}};
  std::stringstream in(FLUSHCHECK_TOOLCHAIN_SETS);  // "musl,clang-libcxx,..."
  for (std::string name; std::getline(in, name, ',');)
    if (!name.empty()) out.push_back({name, std::string(FLUSHCHECK_TOOLCHAIN_ROOT) + "/" + name});
  return out;
}

void PrintTo(const toolchain& t, std::ostream* os) { *os << t.name; }

class handcheck : public ::testing::TestWithParam<toolchain> {
 protected:
  std::string program(const std::string& base) const {
    const auto& t = GetParam();
    if (t.dir.empty()) {
      if (base == "first_line") return FLUSHCHECK_TARGET_HANDCHECK_FIRST_LINE;
      if (base == "buffer_size") return FLUSHCHECK_TARGET_HANDCHECK_BUFFER_SIZE;
      return FLUSHCHECK_TARGET_HANDCHECK_UNSYNCED_ORDER;
    }
    return t.dir + "/handcheck_" + base;
  }
  target_set set() const {
    const auto& t = GetParam();
    if (t.dir.empty())
      return probe_target_set("default", FLUSHCHECK_TARGET_STDIO_SCRIPT,
                              FLUSHCHECK_TARGET_IOSTREAM_SCRIPT);
    return probe_target_dir(t.name, t.dir).value();
  }
  std::string on_pipe(const std::string& base) const {
    run_options o;
    o.argv = {program(base)};
    o.env = clean_environment();
    return run(o).out.data;
  }
  /// The matrix's verdict for PROPERTY on a pipe: its figures are read,
  /// its `observed` text only printed.
  verdict matrix(const std::string& property, lang l) const {
    target_set s = set();
    for (const auto& c : cases(s))
      if (c.prop->name == property && c.language == l && c.sink == sink_kind::pipe)
        return run_case(c, s).outcome;
    ADD_FAILURE() << "no case " << property << " on a pipe";
    return {};
  }
  /// FIGURE of V, failing the test if the check did not measure it.
  static std::int64_t figure(const verdict& v, const std::string& name) {
    auto it = v.figures.find(name);
    if (it == v.figures.end()) ADD_FAILURE() << "the verdict has no figure " << name;
    return it == v.figures.end() ? -1 : it->second;
  }
};

TEST_P(handcheck, first_line_early_as_the_matrix_says) {
  bool early = on_pipe("first_line") == "first\n";
  verdict v = matrix("stdout.first_line_early", lang::c);
  EXPECT_EQ(early, figure(v, "visible_at_first") > 0) << "matrix: " << v.observed;
}

TEST_P(handcheck, flushed_bytes_match_the_matrix_buffer_size) {
  auto got = static_cast<std::int64_t>(on_pipe("buffer_size").size());
  verdict v = matrix("stdout.buffer_size", lang::c);
  std::int64_t n = figure(v, "buffer_bytes");
  ASSERT_GT(n, 0) << "matrix: " << v.observed;
  EXPECT_EQ(got, 3000 / n * n) << "matrix: " << v.observed << "; hand-check delivered " << got;
}

TEST_P(handcheck, unsynced_order_as_the_matrix_says) {
  if (::access(program("unsynced_order").c_str(), X_OK) != 0)
    GTEST_SKIP() << GetParam().name << " has no C++ library";
  bool in_order = on_pipe("unsynced_order") == "AAbbCCdd\n";
  verdict v = matrix("sync.off_order", lang::cxx);
  EXPECT_EQ(in_order, figure(v, "in_program_order") == 1) << "matrix: " << v.observed;
}

INSTANTIATE_TEST_SUITE_P(toolchains, handcheck, ::testing::ValuesIn(toolchains()),
                         [](const ::testing::TestParamInfo<toolchain>& p) {
                           std::string n = p.param.name;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
}  // namespace flushcheck
