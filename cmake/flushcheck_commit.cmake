# cmake -DSOURCE=DIR -DOUT=FILE -P flushcheck_commit.cmake
# Writes OUT (build_commit.cpp) with the commit of the checkout in SOURCE,
# "-dirty" when its tracked files differ, "unknown" outside git. Run at every
# build; OUT is rewritten only when the commit changes, so nothing relinks
# without cause.
execute_process(COMMAND git -C ${SOURCE} rev-parse --short=12 HEAD
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                RESULT_VARIABLE failed)
if(failed OR commit STREQUAL "")
  set(commit unknown)
else()
  execute_process(COMMAND git -C ${SOURCE} diff --quiet HEAD -- RESULT_VARIABLE dirty ERROR_QUIET)
  if(dirty)
    string(APPEND commit "-dirty")
  endif()
endif()
set(text "// Written by cmake/flushcheck_commit.cmake at build time.
#include \"build_commit.hpp\"

const char* flushcheck::cli::build_commit() { return \"${commit}\"; }
")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
