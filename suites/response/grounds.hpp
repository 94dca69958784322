#pragma once
// On what a failure of the data checks rests. The description marks some
// constraints as assumptions of its own (x-assumption, openapi/provenance.hpp);
// a failure that rests on them alone "contradicts an assumption of the
// description" and is reported as such (docs/checks.md). These helpers read
// the request as sent back into values, as a server would, and ask the
// validator about the assumed constraints.

#include <string>
#include <vector>

#include "harness/check.hpp"

namespace conform::suites::response {

/// The assumptions an invalid request is invalid by, when it is invalid by
/// nothing else: every part it sent (parameters, a JSON body) validates with
/// the assumed constraints dropped, and every required part it left out is
/// required by an assumption alone. Empty when a sourced constraint breaks
/// it, or when it cannot be read back (a body that is not JSON, a media type
/// or a parameter style it cannot undo): then the failure stays a failure.
std::vector<std::string> invalid_only_by_assumptions(const harness::exchange& e);

/// A pass of an invalid request that was refused with `answer` ("404
/// NOT_FOUND (\"no such note\")": the server's own reason quoted when it gave
/// one), a refusal that does not say its content was invalid: when
/// the request broke assumptions of the description alone, the pass carries
/// a note with them (`check_verdict::assumptions`), since the run could
/// neither confirm nor contradict them (`run_report::assumptions_not_observed`).
/// `cause` ("404 NOT_FOUND") keeps one note per kind of refusal.
harness::check_verdict assumptions_not_observed(const harness::exchange& e,
                                                const std::string& answer,
                                                const std::string& cause);

/// The assumed bounds the values of a request sit exactly on (a string of
/// exactly an assumed maxLength, a number at an assumed maximum): a refusal
/// of a valid request that sends them may be the target drawing the line
/// elsewhere. Empty when none.
std::vector<std::string> assumed_edges(const harness::exchange& e);

/// The assumptions a response body breaks, when it breaks nothing else:
/// `s` fails, and passes with the assumed constraints dropped. Empty otherwise.
std::vector<std::string> response_only_breaks_assumptions(const schema::schema& s,
                                                          const boost::json::value& body);

/// The ground of a documented response that is an assumption of the
/// description as a whole (its x-assumption entries are all assumptions),
/// as one text; empty when it is sourced or says nothing.
std::string response_assumption(const openapi::response& r);

}  // namespace conform::suites::response
