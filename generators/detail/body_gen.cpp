// Shared request-part generators.

#include "generators/detail/body_gen.hpp"

#include <tuple>
#include <vector>

#include "generators/detail/memo.hpp"

namespace conform::generators::detail {

namespace gen = rc::gen;
using rc::Gen;

Gen<std::string> csv_text() {
  const std::string lower = "abcdefghijklmnopqrstuvwxyz";
  const std::string cell = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  auto word = [](std::string alphabet, std::size_t lo, std::size_t hi) {
    return detail::mapcat(gen::inRange<std::size_t>(lo, hi + 1), [alphabet](std::size_t n) {
      return gen::container<std::string>(n, gen::elementOf(alphabet));
    });
  };
  return detail::mapcat(
      gen::tuple(gen::inRange<std::size_t>(1, 4), gen::inRange<std::size_t>(1, 4)),
      [word, lower, cell](std::tuple<std::size_t, std::size_t> shape) {
        const auto [columns, rows] = shape;
        using row = std::vector<std::string>;
        return gen::map(gen::tuple(gen::container<row>(columns, word(lower, 3, 8)),
                                   gen::container<std::vector<row>>(
                                       rows, gen::container<row>(columns, word(cell, 1, 8)))),
                        [](std::tuple<row, std::vector<row>> t) {
                          std::string out;
                          auto line = [&out](const row& r) {
                            for (std::size_t c = 0; c < r.size(); ++c) out += (c ? "," : "") + r[c];
                            out += "\n";
                          };
                          line(std::get<0>(t));
                          for (const row& r : std::get<1>(t)) line(r);
                          return out;
                        });
      });
}

Gen<std::string> boundary_gen() {
  return gen::map(gen::container<std::string>(16, gen::elementOf(std::string("0123456789abcdef"))),
                  [](const std::string& hex) { return "conform-" + hex; });
}

}  // namespace conform::generators::detail
