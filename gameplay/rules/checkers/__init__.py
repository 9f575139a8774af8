"""English checkers' rules: the game and its move generator (checkers), the board's data, value types and Zobrist keys
(checkers_board), FEN and move text (checkers_notation), the perft fast path (checkers_perft), the ACF opening ballots,
and PDN: strict (pdn) and lenient (pdn_read) reading, the archive's background reading and the browser's rows
(pdn_archive), and PDN as the game's archive format (pdn_format).

May import the standard library and ``gameplay.rules`` (its shared protocols and hooks: base, openings, archive,
textfile ...); no other game's rules."""
