// Each promise term as gate checks of one case (property_promise.hpp).
#include "property_promise.hpp"

namespace flushcheck {

namespace {

/// Term T at END, with its VALUE ("2" for lost_at_most 2).
promised_term term(promise_term_id t, property_end end, std::string value = "") {
  return {t, std::move(value), end, false};
}

gate_expect on(const property_spec& spec, check_id check, long number) {
  gate_expect e;
  e.in = spec.in;
  e.check = check;
  e.number = number;
  return e;
}

/// The terms of promise P on how many records arrive, when PLAN knows how
/// many were logged: all, each_once, lost_at_most.
void add_count_terms(const property_spec& spec, const promise& p, const case_plan& plan,
                     property_end at, std::vector<promised_check>& out) {
  const long n = plan.logged;
  if (p.all && n > 0)
    out.push_back({term(promise_term_id::all, at),
                   plan.threaded ? on(spec, check_id::each_once, n)
                                 : on(spec, check_id::records_through, n - 1)});
  if (p.each_once)
    out.push_back({term(promise_term_id::each_once, at), on(spec, check_id::each_once, n)});
  if (p.lost_at_most && !plan.threaded && n > *p.lost_at_most)
    out.push_back({term(promise_term_id::lost_at_most, at, std::to_string(*p.lost_at_most)),
                   on(spec, check_id::records_at_least, n - *p.lost_at_most)});
}

/// The terms of promise P on the records before a point: the last flush, the
/// last record at a level.
void add_through_terms(const property_spec& spec, const promise& p, const case_plan& plan,
                       property_end at, std::vector<promised_check>& out) {
  if (p.through_last_flush && plan.before_last_flush > 0)
    out.push_back({term(promise_term_id::through_last_flush, at),
                   on(spec, check_id::records_through, plan.before_last_flush - 1)});
  if (p.through_last_level && plan.through_level[*p.through_last_level] > 0)
    out.push_back(
        {term(promise_term_id::through_last_level, at, workload_levels()[*p.through_last_level]),
         on(spec, check_id::records_through, plan.through_level[*p.through_last_level] - 1)});
}

/// The terms of promise P on which records arrive. Records logged after
/// `threads` are promised only as a set (each once), so prefix and in_order
/// are not checked then. Where a cut leaves the
/// count of records logged unknown (a write or a time), only prefix is
/// checked, and `all` as a prefix: every record logged before the cut, on one
/// thread, is records 0..k-1 for some k, whatever k was.
void add_terms(const property_spec& spec, const promise& p, const case_plan& plan, property_end at,
               std::vector<promised_check>& out) {
  const long n = plan.logged;
  if (p.prefix && !plan.threaded)
    out.push_back({term(promise_term_id::prefix, at), on(spec, check_id::records_prefix, n)});
  if (p.in_order && !plan.threaded)
    out.push_back({term(promise_term_id::in_order, at), on(spec, check_id::in_order, 0)});
  if (!plan.logged_exactly) {
    if (p.all && !p.prefix && !plan.threaded)
      out.push_back({{promise_term_id::all, "", at, true}, on(spec, check_id::records_prefix, n)});
    return;
  }
  add_count_terms(spec, p, plan, at, out);
  add_through_terms(spec, p, plan, at, out);
}

/// The terms on how the records were written: whole lines, writes per record.
void add_write_terms(const property_spec& spec, const promise& p, const case_plan& plan,
                     property_end at, std::vector<promised_check>& out) {
  if (p.no_torn_record) {
    gate_expect e = on(spec, check_id::no_torn_record, 0);
    e.text = p.torn_pattern;
    out.push_back({term(promise_term_id::no_torn_record, at), e});
  }
  // Writes per record where records must arrive: an ordinary end that promises them all.
  if (p.max_writes_per_record > 0 && plan.ordinary && plan.logged > 0 && (p.all || p.each_once)) {
    gate_expect e = on(spec, check_id::max_writes_per_record, 0);
    e.ratio = p.max_writes_per_record;
    out.push_back({term(promise_term_id::max_writes_per_record, at), e});
  }
}

}  // namespace

std::vector<promised_check> promised_checks(const property_spec& spec, const workload_case& c,
                                            const case_plan& plan) {
  std::vector<promised_check> out;
  const auto it = spec.promises.find(c.end);
  const promise none;
  const promise& p = it != spec.promises.end() ? it->second : none;
  add_terms(spec, p, plan, c.end, out);
  add_write_terms(spec, p, plan, c.end, out);
  return out;
}

}  // namespace flushcheck
