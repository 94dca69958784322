// `conform serve`: the reference server standalone until SIGINT/SIGTERM.
#include <csignal>
#include <filesystem>
#include <iostream>
#include <pthread.h>

#include "cli/cli.hpp"
#include "core/file.hpp"
#include "reference/server.hpp"

namespace conform::cli {

namespace {

constexpr const char* usage =
    "usage: conform serve [--port N] [--profile-out FILE] [--fault NAME]... [--scale N]\n"
    "                     [--environment sandbox|production] [--seed N]";

bool parse_int(const std::string& text, long long min, long long max, long long& out) {
  if (text.empty() || text.size() > 19) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  out = std::stoll(text);
  return out >= min && out <= max;
}

}  // namespace

int serve_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  reference::server_config config;
  std::string profile_out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string& v) {
      if (i + 1 >= args.size()) {
        err << "conform serve: " << a << " needs a value\n" << usage << "\n";
        return false;
      }
      v = args[++i];
      return true;
    };
    std::string v;
    long long n = 0;
    if (a == "--help" || a == "-h") {
      out << usage << "\n";
      return 0;
    } else if (a == "--port") {
      if (!value(v)) return 2;
      if (!parse_int(v, 0, 65535, n)) {
        err << "conform serve: --port must be from 0 to 65535, not '" << v << "'\n";
        return 2;
      }
      config.port = static_cast<int>(n);
    } else if (a == "--profile-out") {
      if (!value(profile_out)) return 2;
    } else if (a == "--fault") {
      if (!value(v)) return 2;
      config.faults.insert(v);
    } else if (a == "--scale") {
      if (!value(v)) return 2;
      if (!parse_int(v, 1, 1000, n)) {
        err << "conform serve: --scale must be from 1 to 1000, not '" << v << "'\n";
        return 2;
      }
      config.scale = static_cast<int>(n);
    } else if (a == "--environment") {
      if (!value(config.environment)) return 2;
    } else if (a == "--seed") {
      if (!value(v)) return 2;
      if (!parse_int(v, 0, INT64_MAX, n)) {
        err << "conform serve: --seed must be a non-negative integer, not '" << v << "'\n";
        return 2;
      }
      config.seed = static_cast<std::uint64_t>(n);
    } else {
      err << "conform serve: unknown argument '" << a << "'\n" << usage << "\n";
      return 2;
    }
  }
  // Block the stop signals before any thread starts so that every server
  // thread inherits the mask and sigwait below receives them.
  sigset_t stop_signals, previous;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, &previous);
  int status = 0;
  try {
    reference::server srv(config);
    if (profile_out.empty()) {
      out << srv.profile_yaml();
    } else {
      // Swapped in whole, so that a reader never sees half a profile.
      if (auto written =
              core::write_file(profile_out, srv.profile_yaml(), core::write_mode::swap_in);
          !written) {
        err << "conform serve: the profile: " << written.error() << "\n";
        pthread_sigmask(SIG_SETMASK, &previous, nullptr);
        return 2;
      }
    }
    out << "conform serve: listening on " << srv.base_url() << " (" << config.environment
        << "); stop with Ctrl-C\n";
    out.flush();
    int sig = 0;
    sigwait(&stop_signals, &sig);
    out << "conform serve: stopping\n";
  } catch (const std::invalid_argument& e) {
    err << "conform serve: " << e.what() << "\n";
    status = 2;
  } catch (const std::runtime_error& e) {
    err << "conform serve: " << e.what() << "\n";
    status = 2;
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return status;
}

}  // namespace conform::cli
