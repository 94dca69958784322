#pragma once
// The bounds every input Conform reads is held to: descriptions and the files
// their $refs name, their YAML structure, and the regexes they carry. Each
// limit is documented in docs/limits.md; breaking one is an error with
// file:line:col, never a crash or an exhausted machine.

#include <cstddef>

namespace conform::core::limits {

/// Bytes of one file read (a description, a file a $ref names, a matrix).
inline constexpr std::size_t max_file_bytes = 16u << 20;
/// Bytes of one YAML scalar (a description text, an example string, a key).
inline constexpr std::size_t max_scalar_bytes = 1u << 20;
/// Nesting of YAML mappings and sequences, flow or block.
inline constexpr std::size_t max_depth = 64;
/// Nodes of one document once every alias is expanded.
inline constexpr std::size_t max_expanded_nodes = 1'000'000;
/// Scalar bytes of one document once every alias is expanded.
inline constexpr std::size_t max_expanded_bytes = 32u << 20;
/// Characters of one regex (`pattern`, `x-request-id.pattern`).
inline constexpr std::size_t max_pattern_bytes = 4096;
/// Nested groups of one regex.
inline constexpr unsigned max_pattern_groups_nesting = 64;
/// Backtracking steps of one regex match before it is "too costly".
inline constexpr unsigned max_pattern_match_steps = 1'000'000;
/// Nested backtracking frames of one regex match before it is "too costly"
/// (PCRE2 keeps them on the heap: `^(a|b)*$` on 200,000 characters needs
/// 200,000 of them, and must still be judged).
inline constexpr unsigned max_pattern_depth = 1'000'000;
/// Kibibytes of heap one regex match may use before it is "too costly".
inline constexpr unsigned max_pattern_heap_kib = 64u << 10;
/// Bytes of the JIT stack of one thread (reserved, used as needed).
inline constexpr std::size_t max_pattern_jit_stack = 8u << 20;
/// $refs resolved one inside another before the rest are queued.
inline constexpr std::size_t max_ref_nesting = 32;

}  // namespace conform::core::limits
