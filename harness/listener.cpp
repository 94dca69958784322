// The phases by name, and the event stream's fan-out to its listeners.
#include "harness/listener.hpp"

#include <algorithm>

namespace conform::harness {

std::string_view to_string(phase p) {
  switch (p) {
    case phase::scenarios:
      return "scenarios";
    case phase::stateful:
      return "stateful";
    case phase::coverage:
      return "coverage";
    case phase::exchanges:
      return "exchanges";
    case phase::shrinking:
      return "shrinking";
  }
  return "?";
}

void event_stream::add(std::unique_ptr<listener> l) {
  all_.push_back(l.get());
  owned_.push_back(std::move(l));
}

template <typename F>
void event_stream::each(F&& f) {
  std::lock_guard lock(mutex_);
  for (auto* l : all_) f(*l);
}

void event_stream::run_started(const event::run_started& e) {
  each([&](listener& l) { l.run_started(e); });
}
void event_stream::phase_started(const event::phase_started& e) {
  each([&](listener& l) { l.phase_started(e); });
}
void event_stream::exchange_done(const event::exchange_done& e) {
  each([&](listener& l) { l.exchange_done(e); });
}
void event_stream::phase_finished(const event::phase_finished& e) {
  each([&](listener& l) { l.phase_finished(e); });
}
void event_stream::failure_found(const event::failure_found& e) {
  each([&](listener& l) { l.failure_found(e); });
}
void event_stream::not_run(const event::not_run& e) {
  each([&](listener& l) { l.not_run(e); });
}
void event_stream::run_finished(const event::run_finished& e) {
  each([&](listener& l) { l.run_finished(e); });
}
void event_stream::exchange_recorded(const event::exchange_recorded& e) {
  each([&](listener& l) {
    if (l.records_exchanges()) l.exchange_recorded(e);
  });
}
bool event_stream::records_exchanges() const {
  return std::any_of(all_.begin(), all_.end(),
                     [](const listener* l) { return l->records_exchanges(); });
}

}  // namespace conform::harness
