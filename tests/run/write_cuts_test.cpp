// Which derived write cuts are run for real to check a derivation
// (harness/run/write_cuts.hpp): explore's and a property gate's.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "write_cuts.hpp"

namespace flushcheck {
namespace {

TEST(cuts_to_verify, the_first_the_last_each_change_of_torn_and_one_in_64) {
  std::vector<long> reached(200);
  std::iota(reached.begin(), reached.end(), 1);
  std::vector<int> torn(200, 0);
  std::fill(torn.begin() + 100, torn.begin() + 150, 1);
  EXPECT_EQ(cuts_to_verify(reached, torn, 100000, 200),
            (std::vector<std::size_t>{0, 64, 100, 128, 150, 192, 199}));
}

// A real cut costs the writes it reaches: past the first and the last, the
// checks together reach at most the budget, here the uncut run's writes.
TEST(cuts_to_verify, past_the_ends_no_more_writes_than_the_budget) {
  const long writes = 131072;
  std::vector<long> reached(writes);
  std::iota(reached.begin(), reached.end(), 1);
  const std::vector<int> torn(writes, 0);
  const auto v = cuts_to_verify(reached, torn, writes, 200);
  ASSERT_GE(v.size(), 3u);
  EXPECT_EQ(v.front(), 0u);
  EXPECT_EQ(v.back(), static_cast<std::size_t>(writes - 1));
  long middle = 0;
  for (std::size_t i = 1; i + 1 < v.size(); ++i) {
    EXPECT_EQ(v[i] % 64, 0u) << v[i];
    middle += reached[v[i]];
  }
  EXPECT_LE(middle, writes);
  EXPECT_GT(middle, writes / 2) << "as many as fit";
}

// Where a torn line starts or stops comes first: 131,072 cuts, each torn
// but the first; explore's budget (5/8 of the writes): the change at the
// second cut (2 writes), then one of the others, the middle one (65,537).
TEST(cuts_to_verify, changes_first_then_the_others_that_fit) {
  const long writes = 131072;
  std::vector<long> reached(writes);
  std::iota(reached.begin(), reached.end(), 1);
  std::vector<int> torn(writes, 1);
  torn[0] = 0;
  EXPECT_EQ(cuts_to_verify(reached, torn, writes * 5 / 8, 200),
            (std::vector<std::size_t>{0, 1, 65536, 131071}));
}

TEST(cuts_to_verify, no_more_than_max_runs) {
  const std::vector<long> reached(1000, 1);
  std::vector<int> torn(1000);
  for (std::size_t i = 0; i < torn.size(); ++i) torn[i] = i % 2 == 1;  // a change at every cut
  const auto v = cuts_to_verify(reached, torn, 1000000, 10);
  ASSERT_EQ(v.size(), 10u);
  EXPECT_EQ(v.front(), 0u);
  EXPECT_EQ(v.back(), 999u);
  EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
  EXPECT_TRUE(cuts_to_verify({}, {}, 0, 10).empty());
  EXPECT_EQ(cuts_to_verify({1}, {0}, 1, 10), (std::vector<std::size_t>{0}));
  // No derivation is taken unchecked: the first and the last whatever MAX.
  EXPECT_EQ(cuts_to_verify({1, 2, 3}, {0, 0, 0}, 100, 0), (std::vector<std::size_t>{0, 2}));
}

}  // namespace
}  // namespace flushcheck
