// Whole files read and written one way: the bytes or why not, never a
// FIFO waited on, never more than the limit; writes that replace, append,
// refuse to overwrite, or swap a file in whole.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/file.hpp"

namespace conform::core {
namespace {

namespace fs = std::filesystem;

class files : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("conform_file_test_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path at(const std::string& name) const { return dir_ / name; }

 private:
  fs::path dir_;
};

TEST_F(files, what_is_written_reads_back_byte_for_byte) {
  const std::string bytes("a\0b\xff\n", 5);
  ASSERT_TRUE(write_file(at("x"), bytes).ok());
  const auto read = read_file(at("x"));
  ASSERT_TRUE(read.ok()) << read.error();
  EXPECT_EQ(*read, bytes);
  ASSERT_TRUE(write_file(at("x"), "new").ok());  // replaced, not appended to
  EXPECT_EQ(*read_file(at("x")), "new");
  ASSERT_TRUE(write_file(at("x"), "er", write_mode::append).ok());
  EXPECT_EQ(*read_file(at("x")), "newer");
  ASSERT_TRUE(write_file(at("empty"), "").ok());
  EXPECT_EQ(*read_file(at("empty")), "");
}

TEST_F(files, reading_says_why_it_could_not) {
  const auto missing = read_file(at("missing"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(),
            "cannot read '" + at("missing").string() + "': No such file or directory");
  const auto folder = read_file(at(""));
  ASSERT_FALSE(folder.ok());
  EXPECT_NE(folder.error().find("not a regular file"), std::string::npos) << folder.error();
  // A FIFO with no writer is refused at once, not waited on.
  ASSERT_EQ(::mkfifo(at("fifo").c_str(), 0600), 0);
  const auto fifo = read_file(at("fifo"));
  ASSERT_FALSE(fifo.ok());
  EXPECT_NE(fifo.error().find("not a regular file"), std::string::npos) << fifo.error();
}

TEST_F(files, a_file_over_the_limit_is_refused) {
  ASSERT_TRUE(write_file(at("big"), std::string((2u << 20) + 1, 'x')).ok());
  const auto big = read_file(at("big"), 2u << 20);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error(), "'" + at("big").string() + "' is larger than the limit of 2 MiB");
  EXPECT_TRUE(read_file(at("big"), 3u << 20).ok());
}

TEST_F(files, create_never_overwrites_and_sets_the_permissions) {
  ASSERT_TRUE(write_file(at("key"), "secret", write_mode::create, 0600).ok());
  struct stat st {};
  ASSERT_EQ(::stat(at("key").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  const auto again = write_file(at("key"), "other", write_mode::create);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().find("File exists"), std::string::npos) << again.error();
  EXPECT_EQ(*read_file(at("key")), "secret");
}

TEST_F(files, swap_in_replaces_the_file_whole_and_leaves_nothing_beside) {
  ASSERT_TRUE(write_file(at("profile.yaml"), "old").ok());
  ASSERT_TRUE(write_file(at("profile.yaml"), "new", write_mode::swap_in).ok());
  EXPECT_EQ(*read_file(at("profile.yaml")), "new");
  EXPECT_FALSE(fs::exists(at("profile.yaml.partial")));
  const auto nowhere = write_file(at("no/such/folder"), "x", write_mode::swap_in);
  ASSERT_FALSE(nowhere.ok());
  EXPECT_NE(nowhere.error().find("cannot write '"), std::string::npos) << nowhere.error();
}

}  // namespace
}  // namespace conform::core
