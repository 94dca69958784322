#pragma once
// The precompiled header of every test (tests/CMakeLists.txt): the
// third-party and standard headers most tests parse, so each is parsed once
// per build instead of once per test file. Only headers from outside this
// repository: a header of ours here would rebuild every test on each edit.
// Test files still include what they use; this header only makes it cheap.

#include <gtest/gtest.h>
// after gtest, as rapidcheck/gtest.h requires
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <boost/json.hpp>
#include <httplib.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>
