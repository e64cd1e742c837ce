// The script is data (the verbs, their options, the values) written as two
// bash functions, and one function that completes with them. It reads the
// line itself (COMP_LINE up to COMP_POINT), not COMP_WORDS, which bash splits
// at '=', ':' and '@' (COMP_WORDBREAKS): a --kill=KILL@marker:1 is one word here.
#include "completion.hpp"

#include <sstream>
#include <string>
#include <vector>

#include "option_values.hpp"

namespace flushcheck::cli {

namespace {

/// "--stdout --stderr ..." of APP: each long name of each option.
std::string option_names(const CLI::App* app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app->get_options())
    for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
  return joined(names, " ");
}

/// The case arm of _flushcheck_values for VERB's OPTION with values V.
void write_values(std::ostream& out, const std::string& verb, const std::string& option,
                  const option_values& v) {
  out << "    '" << verb << " " << option << "') _fc_words='" << joined(v.words, " ")
      << "' _fc_after='" << joined(v.after_at, " ") << "' _fc_comma=" << (v.comma_list ? 1 : 0)
      << " ;;\n";
}

/// _flushcheck_options VERB: the options of VERB, or of the top app.
void write_options_table(std::ostream& out, const CLI::App& app) {
  out << "_flushcheck_options() {  # VERB: its options\n  case $1 in\n";
  for (const CLI::App* verb : app.get_subcommands({}))
    out << "    " << verb->get_name() << ") echo '" << option_names(verb) << "' ;;\n";
  out << "    *) echo '" << option_names(&app) << "' ;;\n  esac\n}\n\n";
}

/// _flushcheck_values VERB OPTION: the values of each option that has them.
void write_values_table(std::ostream& out, const CLI::App& app) {
  out << "_flushcheck_values() {  # VERB OPTION: _fc_words, _fc_after (after @), _fc_comma\n"
      << "  case \"$1 $2\" in\n";
  for (const CLI::App* verb : app.get_subcommands({}))
    for (const CLI::Option* opt : verb->get_options())
      if (const auto* v = values_of(opt))
        write_values(out, verb->get_name(), opt->get_positional() ? "@positional" : opt->get_name(),
                     *v);
  for (const CLI::Option* opt : app.get_options())
    if (const auto* v = values_of(opt)) write_values(out, "", opt->get_name(), *v);
  out << "    *) return 1 ;;\n  esac\n}\n\n";
}

constexpr const char* k_engine =
    R"bash(# _flushcheck_candidates PREFIX VALUE: each word of _fc_words (or, after '@', of
# _fc_after; after ',' in a list, the next word) that starts VALUE, after PREFIX.
_flushcheck_candidates() {
  local prefix=$1 value=$2 head="" last=$2 w
  local -a list=($_fc_words)
  if [[ $_fc_comma == 1 && $value == *,* ]]; then
    head=${value%,*},
    last=${value##*,}
  elif [[ -n $_fc_after && $value == *@* ]]; then
    head=${value%%@*}@
    last=${value#*@}
    list=($_fc_after)
  fi
  for w in "${list[@]}"; do
    [[ $w == "$last"* ]] && _fc_candidates+=("$prefix$head$w")
  done
}

_fc_default_breaks=$' \t\n"\'@><=;|&(:'  # bash's COMP_WORDBREAKS where it is unset

# _flushcheck_cut WORD: sets cut to where bash's replacement starts in WORD:
# after the last of COMP_WORDBREAKS, or at it when it is '@' or '$'
# (readline's special prefixes). One regex finds it in one pass over the word
# (a loop of ${WORD:i:1} rescans the word from its start at each step in a
# UTF-8 locale: quadratic).
_flushcheck_cut() {
  local word=$1 breaks=${COMP_WORDBREAKS-$_fc_default_breaks} c i set="" rb="" caret="" dash=""
  cut=0
  for ((i = 0; i < ${#breaks}; i++)); do
    c=${breaks:i:1}
    case $c in "]") rb="]" ;; "^") caret="^" ;; "-") dash="-" ;; *) set+=$c ;; esac
  done
  set="$rb$set$caret$dash"
  local re="[$set][^$set]*\$"
  if [[ -n $set && $word =~ $re ]]; then
    cut=$((${#word} - ${#BASH_REMATCH[0]} + 1))
    [[ ${BASH_REMATCH[0]:0:1} == [@\$] ]] && cut=$((cut - 1))
  fi
}

_flushcheck() {
  local line=${COMP_LINE:0:COMP_POINT} cur=""
  # The word being typed: a regex anchored at the end matches it in one pass
  # (${line##*[[:space:]]} tries every prefix: 11 s for a word of 10,000).
  [[ $line =~ [^[:space:]]*$ ]] && cur=${BASH_REMATCH[0]}
  local -a before
  read -ra before <<<"${line:0:${#line}-${#cur}}"
  local verb="" prev="" i w
  ((${#before[@]} > 0)) && prev=${before[${#before[@]}-1]}
  for ((i = 1; i < ${#before[@]}; i++)); do
    w=${before[i]}
    if [[ $w == -- ]]; then  # the program and its arguments
      if ((i == ${#before[@]} - 1)); then
        mapfile -t COMPREPLY < <(compgen -c -- "$cur")
      else
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      fi
      return 0
    fi
    [[ -z $verb && $w != -* && ${before[i-1]} != --completion ]] && verb=$w
  done
  local -a _fc_candidates=()
  local _fc_words _fc_after _fc_comma
  if [[ $cur == --*=* ]] && _flushcheck_values "$verb" "${cur%%=*}"; then
    _flushcheck_candidates "${cur%%=*}=" "${cur#*=}"
  elif [[ $cur != -* ]] && _flushcheck_values "$verb" "$prev"; then
    _flushcheck_candidates "" "$cur"
  elif [[ $cur == -* ]]; then
    for w in $(_flushcheck_options "$verb"); do
      [[ $w == "$cur"* ]] && _fc_candidates+=("$w")
    done
  elif [[ -z $verb ]]; then
    for w in $_flushcheck_verbs; do
      [[ $w == "$cur"* ]] && _fc_candidates+=("$w")
    done
  elif _flushcheck_values "$verb" "@positional"; then
    _flushcheck_candidates "" "$cur"
  elif [[ $verb == gate ]]; then
    mapfile -t _fc_candidates < <(compgen -f -- "$cur")
  fi
  local cut
  _flushcheck_cut "$cur"
  COMPREPLY=()
  for w in "${_fc_candidates[@]}"; do
    COMPREPLY+=("${w:cut}")
    [[ $w == *[=:@,] ]] && compopt -o nospace 2>/dev/null
  done
  return 0
}
complete -F _flushcheck flushcheck
)bash";

}  // namespace

std::string bash_completion(const CLI::App& app) {
  std::ostringstream out;
  out << "# bash completion for flushcheck(1), written by `flushcheck --completion=bash` from\n"
      << "# the CLI's own definitions: the verbs, their options, the values of each\n"
      << "# enumerated option (harness/cli/completion.cpp).\n\n_flushcheck_verbs='";
  std::vector<std::string> verbs;
  for (const CLI::App* verb : app.get_subcommands({})) verbs.push_back(verb->get_name());
  out << joined(verbs, " ") << "'\n\n";
  write_options_table(out, app);
  write_values_table(out, app);
  out << k_engine;
  return out.str();
}

}  // namespace flushcheck::cli
