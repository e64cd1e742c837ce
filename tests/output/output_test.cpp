// The output layer (harness/output): the one markup escape and the one JSON
// dump, on the bytes a program may write.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "escape.hpp"
#include "json_document.hpp"
#include "number_format.hpp"

namespace flushcheck {
namespace {

TEST(output, markup_escape_keeps_utf8_and_escapes_what_markup_cannot_carry) {
  EXPECT_EQ(markup_escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
  EXPECT_EQ(markup_escape("line\nnext\ttab\r"), "line&#10;next&#9;tab&#13;");
  EXPECT_EQ(markup_escape("caf\xc3\xa9 \xe2\x9c\x93"), "caf\xc3\xa9 \xe2\x9c\x93");
  EXPECT_EQ(markup_escape(std::string("\x01\xff", 2) + "x"), "\\x01\\xffx");
  EXPECT_EQ(markup_escape("\xc3"), "\\xc3") << "a sequence cut short";
  EXPECT_EQ(markup_escape("\xed\xa0\x80"), "\\xed\\xa0\\x80") << "a surrogate";
}

TEST(output, terminal_text_escapes_every_control_but_newline_and_tab) {
  EXPECT_EQ(terminal_text("a\tb\nc \xc3\xa9 \xe2\x9c\x93"), "a\tb\nc \xc3\xa9 \xe2\x9c\x93");
  EXPECT_EQ(terminal_text("\x1b]0;title\x07\x1b[2J"), "\\x1b]0;title\\x07\\x1b[2J");
  EXPECT_EQ(terminal_text("cr\r del\x7f"), "cr\\x0d del\\x7f");
  EXPECT_EQ(terminal_text("c1 \xc2\x9b lone \x9b"), "c1 \\xc2\\x9b lone \\x9b");
}

TEST(output, markdown_text_carries_no_markup_and_a_code_span_cannot_be_ended) {
  EXPECT_EQ(markdown_text("<script>a|b</script>\n[C] & x"),
            "&lt;script&gt;a\\|b&lt;/script&gt; [C] &amp; x");
  EXPECT_EQ(markdown_text("\x1b[2J"), "\\x1b[2J");
  EXPECT_EQ(markdown_code("env -i a=1 prog"), "`env -i a=1 prog`");
  EXPECT_EQ(markdown_code("a ` <b> `` c"), "```a ` <b> `` c```");
  EXPECT_EQ(markdown_code("`x`"), "`` `x` ``");
  EXPECT_EQ(markdown_code("two\nlines"), "`two lines`");
}

TEST(output, dump_json_replaces_bytes_that_are_not_utf8_and_never_throws) {
  nlohmann::json j = json_document(json_kind::run);
  j["data"] = std::string("ok \xff\xfe end");
  std::string text;
  ASSERT_NO_THROW(text = dump_json(j));
  EXPECT_EQ(text.back(), '\n');
  auto back = nlohmann::json::parse(text);
  EXPECT_EQ(back["data"], "ok \xef\xbf\xbd\xef\xbf\xbd end");
  EXPECT_EQ(back["kind"], "run");
  EXPECT_EQ(back["schema"], 2);
}

TEST(output, a_document_is_read_back_only_as_its_own_kind_and_schema) {
  const nlohmann::json matrix = json_document(json_kind::matrix);
  EXPECT_TRUE(is_json_document(matrix, json_kind::matrix));
  EXPECT_FALSE(is_json_document(matrix, json_kind::bench)) << "another kind";
  nlohmann::json older = matrix;
  older.erase("kind");
  EXPECT_TRUE(is_json_document(older, json_kind::matrix)) << "written before kinds were named";
  older["schema"] = 1;
  EXPECT_FALSE(is_json_document(older, json_kind::matrix)) << "another schema";
  EXPECT_FALSE(is_json_document(nlohmann::json::array(), json_kind::matrix));
}

TEST(output, numbers_have_one_format_each) {
  EXPECT_EQ(significant(3.14159), "3.14");
  EXPECT_EQ(significant(1234567.0), "1.23e+06");
  EXPECT_EQ(fixed(0.05, 3), "0.050");
  EXPECT_EQ(fixed(1e300, 0).size(), 301u) << "no truncation of a large value";
  for (std::int64_t us : {0, 12345, 1234567, 999999999}) {
    std::ostringstream stream;  // how the run report printed milliseconds before
    stream << static_cast<double>(us) / 1000.0;
    EXPECT_EQ(millis(us), stream.str());
  }
  EXPECT_EQ(format_seconds(1.52), "1.52 s");
  EXPECT_EQ(format_seconds(0.0123), "12.3 ms");
  EXPECT_EQ(format_seconds(850e-6), "850 us");
  EXPECT_EQ(format_seconds(0), "-");
  EXPECT_EQ(format_seconds(std::numeric_limits<double>::quiet_NaN()), "-");
  EXPECT_EQ(format_ratio(3.1), "3.10x");
  EXPECT_EQ(format_throughput(12.3e6), "12.3 MB/s");
  EXPECT_EQ(format_calls(-1), "-");
}

}  // namespace
}  // namespace flushcheck
