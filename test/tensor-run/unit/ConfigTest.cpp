// The device count the driver and the library accept.
#include <gtest/gtest.h>

#include "Config.h"

namespace tensor_run {
namespace {

TEST(DeviceCount, AcceptsOneToSixteen) {
  EXPECT_EQ(parse_device_count("1"), 1);
  EXPECT_EQ(parse_device_count("2"), 2);
  EXPECT_EQ(parse_device_count("16"), 16);
}

TEST(DeviceCount, RejectsEverythingElse) {
  for (const char* bad : {"", "0", "17", "999", "-3", "abc", "2x", " 2", "2 ", "+2", "99999999999999999999"})
    EXPECT_EQ(parse_device_count(bad), 0) << "'" << bad << "'";
  EXPECT_EQ(parse_device_count(nullptr), 0);
}

}  // namespace
}  // namespace tensor_run
