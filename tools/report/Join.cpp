#include "Join.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace tensor_tidy::report {

std::vector<Entry> joinFindings(const std::vector<Finding>& Findings) {
  using StaticKey = std::tuple<std::string, std::string, unsigned, unsigned, std::string>;
  using SiteKey = std::tuple<std::string, std::string, unsigned>;
  std::map<StaticKey, Entry> Static;
  struct Runtime {
    Entry E;
    bool Joined = false;
  };
  std::map<SiteKey, Runtime> Dynamic;

  for (const Finding& F : Findings) {
    if (F.From == Origin::Static) {
      // One finding read from several inputs (text and fixes of one run, two
      // shards, two TUs that include one header) is one finding.
      Entry& E = Static[{F.Check, F.File, F.Line, F.Column, F.Message}];
      if (E.StaticCount == 0) {
        E.StaticCount = 1;
        E.Check = F.Check;
        E.File = F.File;
        E.Line = F.Line;
        E.Column = F.Column;
        E.Message = F.Message;
      }
    } else {
      Runtime& R = Dynamic[{F.Check, F.File, F.Line}];
      // The first record speaks for the site: a loop records the same
      // violation with the same message every pass.
      if (R.E.DynamicCount++ == 0) {
        R.E.Kind = Group::DynamicOnly;
        R.E.Check = F.Check;
        R.E.File = F.File;
        R.E.Line = F.Line;
        R.E.Column = F.Column;
        R.E.Message = F.Message;
        R.E.RuntimeMessage = F.Message;
        R.E.Op = F.Op;
      }
    }
  }

  std::vector<Entry> Out;
  for (auto& [Key, E] : Static) {
    auto It = Dynamic.find({E.Check, E.File, E.Line});
    if (It != Dynamic.end()) {
      E.Kind = Group::Confirmed;
      E.DynamicCount = It->second.E.DynamicCount;
      E.RuntimeMessage = It->second.E.RuntimeMessage;
      E.Op = It->second.E.Op;
      It->second.Joined = true;
    } else {
      E.Kind = Group::StaticOnly;
    }
    Out.push_back(std::move(E));
  }
  for (auto& [Key, R] : Dynamic)
    if (!R.Joined) Out.push_back(std::move(R.E));

  std::stable_sort(Out.begin(), Out.end(), [](const Entry& A, const Entry& B) {
    return std::tie(A.Kind, A.File, A.Line, A.Column, A.Check, A.Message) <
           std::tie(B.Kind, B.File, B.Line, B.Column, B.Check, B.Message);
  });
  return Out;
}

}  // namespace tensor_tidy::report
