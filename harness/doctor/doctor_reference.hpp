#pragma once
/// Whether the pty run of a diagnosis (doctor_diagnosis.hpp) is a reference
/// for a pipe's or a file's run of the same stream, and when it is not, why,
/// in words: a program that ran a pager on the pty, wrote escape sequences
/// there, did not end there or on the other sink, or wrote other bytes
/// (compared around what varies between runs: field_mask.hpp).
#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "doctor_diagnosis.hpp"
#include "field_mask.hpp"

namespace flushcheck {

/// How many bytes A and B share from their start.
std::size_t common_prefix(std::string_view a, std::string_view b);

/// The first program the pty's run PTY exec'd that S's run did not (a
/// pager), or "".
std::string ran_only_on_pty(const doctor_sink& pty, const doctor_sink& s);

/// Whether PATH is a pager's (less, more, most, pg, pager): at a terminal it
/// waits for a key.
bool is_pager(const std::string& path);

/// Why the pty run PTY is no reference for S's run ("" when it is one): S's
/// output is a prefix of the pty's (of the part both wrote, when one of them
/// met the deadline), compared around what MASK masks (byte for byte when
/// it is empty), both ended the same way, and neither dropped bytes
/// (outputs past 16 MiB are not diagnosed).
std::string reference_gap(const doctor_sink& pty, const doctor_sink& s, const field_mask& mask);

/// Whether S's output is no prefix of the pty's byte for byte where both
/// runs ended alike and kept their whole output: what fields that vary
/// between runs (a pid, the time) may explain.
bool differs_in_bytes(const doctor_sink& pty, const doctor_sink& s);

/// How long a run of a program that ended by itself in ENDED_IN may last:
/// load slows a traced run several times over, and that is no doing of the
/// program's, so 8 times ENDED_IN and 5 s more, or DEADLINE if that is longer.
std::chrono::milliseconds run_limit(std::chrono::milliseconds deadline,
                                    std::chrono::milliseconds ended_in);

/// How long S's reference run lasted, in whole ms.
std::chrono::milliseconds duration_of(const doctor_sink& s);

}  // namespace flushcheck
