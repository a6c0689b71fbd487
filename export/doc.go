// Package export flattens what verdict decided into tables a spreadsheet or
// a data frame reads, as CSV (RFC 4180, encoding/csv) or JSONL (one JSON
// object per row, members in column order): the graded fields (Grades,
// blinded until a verified reveal exists) and the scorer report's runs,
// pairs, tasks and sessions.
//
// A value that is unknown or undefined is never written as 0: its cell is
// empty (null in JSONL) and the column named X_unknown beside it says why.
// A fraction is three columns, X_num, X_den and X_decimal; a ratio X_exact
// and X_decimal; money X_pico_usd and X_usd. Output is deterministic: rows
// are sorted and the column order is fixed.
//
// Every text cell is written as the screens show it (internal/visible):
// a control or format character (ESC, BEL, C1, bidi override, zero-width
// mark) becomes "⟨U+XXXX⟩" and a tab four spaces, in CSV and JSONL alike,
// so no exported value can act on a terminal. In CSV, a cell that begins
// with "=", "+", "-", "@", a tab or a carriage return (a spreadsheet
// formula) is written with a leading single quote so that spreadsheets
// show it as text (CSVCell); a plain number such as "-0.5" is left as it
// is. JSONL values are never changed.
package export
