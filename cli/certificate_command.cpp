// `conform certificate keygen|verify`: Ed25519 keys for signing
// certificates, and the check of a certificate a partner hands over.
#include <tuple>

#include "cli/cli.hpp"
#include "core/file.hpp"
#include "reports/certificate.hpp"

namespace conform::cli {

namespace {

constexpr const char* usage =
    "usage: conform certificate keygen --private-key FILE --public-key FILE\n"
    "       conform certificate verify CERTIFICATE --public-key FILE\n";

}  // namespace

int certificate_command(const std::vector<std::string>& args, std::ostream& out,
                        std::ostream& err) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    (args.empty() ? err : out) << usage;
    return args.empty() ? 2 : 0;
  }
  std::string private_key, public_key, certificate;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto take = [&](std::string& v) {
      if (i + 1 >= args.size()) return false;
      v = args[++i];
      return true;
    };
    if (a == "--private-key") {
      if (!take(private_key)) {
        err << "conform certificate: --private-key needs a file\n";
        return 2;
      }
    } else if (a == "--public-key") {
      if (!take(public_key)) {
        err << "conform certificate: --public-key needs a file\n";
        return 2;
      }
    } else if (certificate.empty() && !a.starts_with("--")) {
      certificate = a;
    } else {
      err << "conform certificate: unknown argument '" << a << "'\n" << usage;
      return 2;
    }
  }
  if (args[0] == "keygen") {
    if (private_key.empty() || public_key.empty() || !certificate.empty()) {
      err << "conform certificate keygen: give --private-key FILE and --public-key FILE\n";
      return 2;
    }
    const auto keys = reports::generate_key_pair();
    if (!keys) {
      err << "conform certificate keygen: " << keys.error() << "\n";
      return 2;
    }
    const std::string& priv = keys->private_pem;
    const std::string& pub = keys->public_pem;
    // The private key only ever goes into its file, readable by its owner.
    // Neither file may exist yet: a key pair is never overwritten.
    for (const auto& [path, text, permissions] :
         {std::tuple{&private_key, &priv, 0600u}, std::tuple{&public_key, &pub, 0644u}}) {
      if (auto written = core::write_file(*path, *text, core::write_mode::create, permissions);
          !written) {
        err << "conform certificate keygen: " << written.error() << " (it must not exist yet)\n";
        return 2;
      }
    }
    out << "conform certificate keygen: private key in " << private_key
        << " (keep it secret), public key in " << public_key << "\n";
    return 0;
  }
  if (args[0] == "verify") {
    if (certificate.empty() || public_key.empty()) {
      err << "conform certificate verify: give CERTIFICATE and --public-key FILE\n";
      return 2;
    }
    const auto text = core::read_file(certificate);
    const auto pub = core::read_file(public_key);
    for (const auto* read : {&text, &pub}) {
      if (!*read) {
        err << "conform certificate verify: " << read->error() << "\n";
        return 2;
      }
    }
    const auto check = reports::verify_certificate(*text, *pub);
    if (!check.valid) {
      out << "INVALID: " << certificate << ": " << check.why << "\n";
      return 1;
    }
    out << "VALID: " << certificate << " is signed by key " << check.key_id << " and certifies:\n"
        << reports::describe_certificate(check.statement);
    return 0;
  }
  err << "conform certificate: unknown subcommand '" << args[0] << "'\n" << usage;
  return 2;
}

}  // namespace conform::cli
