# One place for the warning flags of every target (Catch2's CatchMiscFunctions
# does the same). FLUSHCHECK_WERROR turns them into errors (dev preset).
function(flushcheck_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Wpedantic
    $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor -Wold-style-cast>
    $<$<BOOL:${FLUSHCHECK_WERROR}>:-Werror>)
endfunction()

# ASan + UBSan, or TSan, for harness-side code (FLUSHCHECK_SANITIZE,
# FLUSHCHECK_SANITIZE_THREAD).
function(flushcheck_sanitize target)
  if(FLUSHCHECK_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined
      -fno-sanitize-recover=all -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  elseif(FLUSHCHECK_SANITIZE_THREAD)
    target_compile_options(${target} PRIVATE -fsanitize=thread -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=thread)
  endif()
endfunction()
