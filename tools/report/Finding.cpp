#include "Finding.h"
#include "Paths.h"

namespace tensor_tidy::report {

const char* groupName(Group G) {
  switch (G) {
    case Group::Confirmed: return "confirmed";
    case Group::StaticOnly: return "static-only";
    case Group::DynamicOnly: return "dynamic-only";
  }
  return "?";
}

Summary summarise(const Report& R) {
  Summary S;
  for (const Entry& E : R.Entries) {
    switch (E.Kind) {
      case Group::Confirmed: ++S.Confirmed; break;
      case Group::StaticOnly: ++S.StaticOnly; break;
      case Group::DynamicOnly: ++S.DynamicOnly; break;
    }
    ++(E.InBaseline ? S.Unchanged : S.New);
  }
  return S;
}

std::string displayPath(const Report& R, const std::string& File) { return relativeTo(File, R.SourceRoot); }

}  // namespace tensor_tidy::report
