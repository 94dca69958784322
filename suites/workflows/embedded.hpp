#pragma once
// The workflow documents shipped in suites/workflows/*.arazzo.yaml, embedded
// at build time (suites/CMakeLists.txt writes the definition).

#include <string>
#include <vector>

namespace conform::suites::workflows {

struct embedded_document {
  std::string name;  // "suites/workflows/<name>.arazzo.yaml"
  std::string text;
};

/// Every shipped document, by file name.
std::vector<embedded_document> embedded_documents();

}  // namespace conform::suites::workflows
