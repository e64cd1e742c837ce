# CMakeGraphVizOptions.cmake for ci/update-docs: the harness's libraries and
# the command, without the external libraries, the tests or the targets.
set(GRAPHVIZ_GRAPH_NAME "flushcheck")
set(GRAPHVIZ_EXTERNAL_LIBS FALSE)
set(GRAPHVIZ_GENERATE_PER_TARGET TRUE)
set(GRAPHVIZ_GENERATE_DEPENDERS FALSE)
# the programs the command finds beside it (built with it, not linked)
set(GRAPHVIZ_IGNORE_TARGETS "^bench_" "^stdio_script" "^iostream_script" "^runtime_targets")
