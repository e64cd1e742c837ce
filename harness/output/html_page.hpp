#pragma once
/// The self-contained HTML page around a report's pictures (bench, run,
/// explore, doctor): one style sheet, no script, nothing fetched.
#include <string>

namespace flushcheck {

/// From <!doctype html> to the page's <h1>TITLE</h1>; CSS adds rules of the
/// page's own to the common ones.
std::string html_head(const std::string& title, const std::string& css = "");
/// "</body></html>".
std::string html_end();
/// An SVG document as HTML takes it inline: from its <svg> tag (no XML prolog).
std::string inline_svg(const std::string& svg);

}  // namespace flushcheck
