#pragma once
// The commit this binary was built from: build_commit.cpp is written at each
// build by cmake/flushcheck_commit.cmake ("unknown" outside a git checkout).

namespace flushcheck::cli {

const char* build_commit();

}  // namespace flushcheck::cli
