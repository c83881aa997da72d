// The report's data model: one finding as read from an input, and one joined
// entry of the report. Everything else in tools/report reads or writes these.
#ifndef TENSOR_TIDY_REPORT_FINDING_H
#define TENSOR_TIDY_REPORT_FINDING_H

#include <string>
#include <vector>

namespace tensor_tidy::report {

/// tool.driver.name of the report's SARIF; a baseline SARIF must carry it.
inline constexpr const char SarifDriverName[] = "tensor-tidy";

/// Where a finding came from: the static checks or a runtime validation log.
enum class Origin { Static, Dynamic };

/// One finding as an input reported it, its file already normalised to an
/// absolute path without `.` or `..` components.
struct Finding {
  Origin From = Origin::Static;
  std::string Check;    ///< check name, e.g. `tensor-mixed-device`
  std::string File;     ///< normalised absolute path
  unsigned Line = 0;    ///< 1-based
  unsigned Column = 0;  ///< 1-based; 0 when unknown
  std::string Message;
  std::string Op;        ///< runtime only: the operation (`add`, `to`, ...)
  std::string Function;  ///< runtime only: the enclosing function
};

/// The three groups of the report.
enum class Group { Confirmed, StaticOnly, DynamicOnly };

/// Returns the group's name as written in every output format.
const char* groupName(Group G);

/// One line of the report: a static finding joined with the runtime records
/// at the same check, file and line, or a runtime finding with no static
/// counterpart. Duplicates are folded into the counts.
struct Entry {
  Group Kind = Group::StaticOnly;
  std::string Check;
  std::string File;  ///< normalised absolute path
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Message;         ///< the static message when there is one
  std::string RuntimeMessage;  ///< the first runtime message, if any
  std::string Op;              ///< runtime operation, if any
  unsigned StaticCount = 0;    ///< 1 when the checks report it (identical reports fold into one)
  unsigned DynamicCount = 0;   ///< runtime records folded (one per execution)
  bool InBaseline = false;     ///< matched a finding of the baseline (Baseline.h)
  std::string ContextHash;     ///< Fingerprint.h; empty when the source is unreadable
  std::string LineHash;        ///< Fingerprint.h; empty when the source is unreadable

  bool isStatic() const { return StaticCount > 0; }
  bool isDynamic() const { return DynamicCount > 0; }
};

/// The joined report: entries sorted by group, file, line, column, check.
struct Report {
  std::vector<Entry> Entries;
  std::string SourceRoot;  ///< normalised absolute path, or empty
  bool HasBaseline = false;
  /// A runtime validation log was among the inputs (empty or not): without
  /// one, the static findings were neither confirmed nor refuted.
  bool HasRuntimeLog = false;
};

/// How many entries each group holds, and how many are new.
struct Summary {
  unsigned Confirmed = 0, StaticOnly = 0, DynamicOnly = 0;
  unsigned New = 0, Unchanged = 0;  ///< split by the baseline (all new without)
};

/// Counts the entries of \p R.
Summary summarise(const Report& R);

/// The path to show for \p File: relative to the report's source root when
/// it lies under it, else absolute.
std::string displayPath(const Report& R, const std::string& File);

}  // namespace tensor_tidy::report

#endif
