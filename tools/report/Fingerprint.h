// Fingerprints: identities of a finding that survive edits elsewhere in the
// file and a checkout in another directory, so baselines keep matching. In
// the manner of GitHub code scanning's primaryLocationLineHash: a hash of
// the source text at the finding, not of its line number.
#ifndef TENSOR_TIDY_REPORT_FINGERPRINT_H
#define TENSOR_TIDY_REPORT_FINGERPRINT_H

#include "Finding.h"

namespace tensor_tidy::report {

/// SARIF partialFingerprints key of the hash over the finding's line and its
/// nearest non-blank neighbours: survives lines added or removed elsewhere.
inline constexpr const char ContextHashKey[] = "tensorTidyContextHash/v1";
/// Key of the hash over the finding's line alone: also survives edits to
/// the neighbouring lines.
inline constexpr const char LineHashKey[] = "tensorTidyLineHash/v1";

/// Fills Entry::ContextHash and Entry::LineHash for every entry of \p R
/// whose source line can be read. Each hash covers the check, the message
/// and the source text with all whitespace removed; it is the first 16 hex
/// digits of its SHA-256. The path is not hashed: a baseline compares it
/// beside the hash, relative to each report's source root (Baseline.h).
/// Entries whose file is unreadable, binary, or shorter than their line keep
/// empty hashes and match on file:line.
void computeFingerprints(Report& R);

}  // namespace tensor_tidy::report

#endif
