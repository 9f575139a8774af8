"""The perft fast path of English checkers: move counting and perft on raw 35-bit ints (no move objects), behind
:meth:`gameplay.rules.checkers.checkers.Checkers.perft` and :func:`gameplay.rules.checkers.checkers.count_moves`.

The layout is :mod:`gameplay.rules.checkers.checkers_board`'s; counting ignores draw rules (RULES.md). Compiled with
mypyc (:data:`gameplay.rules.compiled.COMPILED_MODULES`).
"""

from __future__ import annotations

from gameplay.rules.bits import popcount
from gameplay.rules.checkers.checkers_board import ROW0, ROW7, VALID

# ----- perft: raw-int fast path ----------------------------------------------------------------------------------
# Black moves toward higher internal bits (+4, +5), White toward lower ones; a jump is two equal steps.
# ``b``, ``w``, ``k`` are internal 35-bit bitboards. Counting ignores draw rules (RULES.md).

def _jc_bman(p: int, w: int, empty: int) -> int:
    """Complete jump sequences of a Black man at ``p`` (at least 1: the sequence ending here)."""
    n = 0
    o = p << 4
    if o & w:
        t = o << 4
        if t & empty:
            n += 1 if t & ROW7 else _jc_bman(t, w ^ o, empty)
    o = p << 5
    if o & w:
        t = o << 5
        if t & empty:
            n += 1 if t & ROW7 else _jc_bman(t, w ^ o, empty)
    return n or 1


def _jc_wman(p: int, b: int, empty: int) -> int:
    n = 0
    o = p >> 4
    if o & b:
        t = o >> 4
        if t & empty:
            n += 1 if t & ROW0 else _jc_wman(t, b ^ o, empty)
    o = p >> 5
    if o & b:
        t = o >> 5
        if t & empty:
            n += 1 if t & ROW0 else _jc_wman(t, b ^ o, empty)
    return n or 1


def _jc_king(p: int, them: int, empty: int) -> int:
    n = 0
    o = p << 4
    if o & them and (o << 4) & empty:
        n += _jc_king(o << 4, them ^ o, empty)
    o = p << 5
    if o & them and (o << 5) & empty:
        n += _jc_king(o << 5, them ^ o, empty)
    o = p >> 4
    if o & them and (o >> 4) & empty:
        n += _jc_king(o >> 4, them ^ o, empty)
    o = p >> 5
    if o & them and (o >> 5) & empty:
        n += _jc_king(o >> 5, them ^ o, empty)
    return n or 1


def _js_bman(p: int, w: int, empty: int, caps: int, out: list[tuple[int, int]]) -> None:
    """Append ``(landing bit, captured mask)`` of every complete jump sequence of a Black man from ``p``."""
    found = False
    o = p << 4
    if o & w:
        t = o << 4
        if t & empty:
            found = True
            if t & ROW7:
                out.append((t, caps | o))
            else:
                _js_bman(t, w ^ o, empty, caps | o, out)
    o = p << 5
    if o & w:
        t = o << 5
        if t & empty:
            found = True
            if t & ROW7:
                out.append((t, caps | o))
            else:
                _js_bman(t, w ^ o, empty, caps | o, out)
    if not found:
        out.append((p, caps))


def _js_wman(p: int, b: int, empty: int, caps: int, out: list[tuple[int, int]]) -> None:
    found = False
    o = p >> 4
    if o & b:
        t = o >> 4
        if t & empty:
            found = True
            if t & ROW0:
                out.append((t, caps | o))
            else:
                _js_wman(t, b ^ o, empty, caps | o, out)
    o = p >> 5
    if o & b:
        t = o >> 5
        if t & empty:
            found = True
            if t & ROW0:
                out.append((t, caps | o))
            else:
                _js_wman(t, b ^ o, empty, caps | o, out)
    if not found:
        out.append((p, caps))


def _js_king(p: int, them: int, empty: int, caps: int, out: list[tuple[int, int]]) -> None:
    found = False
    o = p << 4
    if o & them and (o << 4) & empty:
        found = True
        _js_king(o << 4, them ^ o, empty, caps | o, out)
    o = p << 5
    if o & them and (o << 5) & empty:
        found = True
        _js_king(o << 5, them ^ o, empty, caps | o, out)
    o = p >> 4
    if o & them and (o >> 4) & empty:
        found = True
        _js_king(o >> 4, them ^ o, empty, caps | o, out)
    o = p >> 5
    if o & them and (o >> 5) & empty:
        found = True
        _js_king(o >> 5, them ^ o, empty, caps | o, out)
    if not found:
        out.append((p, caps))


def perft_b(b: int, w: int, k: int, depth: int, term: int) -> int:
    """Perft with Black to move (depth >= 1); bulk-counts the moves at the last ply."""
    empty = VALID & ~(b | w)
    bk = b & k
    jumpers = b & (((w >> 4) & (empty >> 8)) | ((w >> 5) & (empty >> 10)))
    if bk:
        jumpers |= bk & (((w << 4) & (empty << 8)) | ((w << 5) & (empty << 10)))
    if jumpers:
        if depth == 1:
            n = 0
            while jumpers:
                p = jumpers & -jumpers
                jumpers ^= p
                if p & k:
                    n += _jc_king(p, w, empty | p)
                else:
                    n += _jc_bman(p, w, empty)
            return n or term
        total = 0
        seqs: list[tuple[int, int]] = []
        while jumpers:
            p = jumpers & -jumpers
            jumpers ^= p
            seqs.clear()
            if p & k:
                _js_king(p, w, empty | p, 0, seqs)
                for t, caps in seqs:
                    total += perft_w(b ^ p ^ t, w ^ caps, (k ^ p ^ t) & ~caps, depth - 1, term)
            else:
                _js_bman(p, w, empty, 0, seqs)
                for t, caps in seqs:
                    nk = k & ~caps
                    if t & ROW7:
                        nk |= t
                    total += perft_w(b ^ p ^ t, w ^ caps, nk, depth - 1, term)
        return total or term
    d4 = empty & (b << 4)
    d5 = empty & (b << 5)
    if bk:
        u4 = empty & (bk >> 4)
        u5 = empty & (bk >> 5)
    else:
        u4 = u5 = 0
    if depth == 1:
        return (popcount(d4) + popcount(d5) + popcount(u4) + popcount(u5)) or term
    d1 = depth - 1
    total = 0
    if depth == 2:
        count = count_w
        while d4:
            t = d4 & -d4
            d4 ^= t
            s = t >> 4
            m = s | t
            if s & k:
                total += count(b ^ m, w, k ^ m) or term
            elif t & ROW7:
                total += count(b ^ m, w, k | t) or term
            else:
                total += count(b ^ m, w, k) or term
        while d5:
            t = d5 & -d5
            d5 ^= t
            s = t >> 5
            m = s | t
            if s & k:
                total += count(b ^ m, w, k ^ m) or term
            elif t & ROW7:
                total += count(b ^ m, w, k | t) or term
            else:
                total += count(b ^ m, w, k) or term
        while u4:
            t = u4 & -u4
            u4 ^= t
            m = t | (t << 4)
            total += count(b ^ m, w, k ^ m) or term
        while u5:
            t = u5 & -u5
            u5 ^= t
            m = t | (t << 5)
            total += count(b ^ m, w, k ^ m) or term
        return total or term
    rec = perft_w
    while d4:
        t = d4 & -d4
        d4 ^= t
        s = t >> 4
        m = s | t
        if s & k:
            total += rec(b ^ m, w, k ^ m, d1, term)
        elif t & ROW7:
            total += rec(b ^ m, w, k | t, d1, term)
        else:
            total += rec(b ^ m, w, k, d1, term)
    while d5:
        t = d5 & -d5
        d5 ^= t
        s = t >> 5
        m = s | t
        if s & k:
            total += rec(b ^ m, w, k ^ m, d1, term)
        elif t & ROW7:
            total += rec(b ^ m, w, k | t, d1, term)
        else:
            total += rec(b ^ m, w, k, d1, term)
    while u4:
        t = u4 & -u4
        u4 ^= t
        m = t | (t << 4)
        total += rec(b ^ m, w, k ^ m, d1, term)
    while u5:
        t = u5 & -u5
        u5 ^= t
        m = t | (t << 5)
        total += rec(b ^ m, w, k ^ m, d1, term)
    return total or term


def perft_w(b: int, w: int, k: int, depth: int, term: int) -> int:
    """Perft with White to move (depth >= 1); the mirror image of :func:`perft_b`."""
    empty = VALID & ~(b | w)
    wk = w & k
    jumpers = w & (((b << 4) & (empty << 8)) | ((b << 5) & (empty << 10)))
    if wk:
        jumpers |= wk & (((b >> 4) & (empty >> 8)) | ((b >> 5) & (empty >> 10)))
    if jumpers:
        if depth == 1:
            n = 0
            while jumpers:
                p = jumpers & -jumpers
                jumpers ^= p
                if p & k:
                    n += _jc_king(p, b, empty | p)
                else:
                    n += _jc_wman(p, b, empty)
            return n or term
        total = 0
        seqs: list[tuple[int, int]] = []
        while jumpers:
            p = jumpers & -jumpers
            jumpers ^= p
            seqs.clear()
            if p & k:
                _js_king(p, b, empty | p, 0, seqs)
                for t, caps in seqs:
                    total += perft_b(b ^ caps, w ^ p ^ t, (k ^ p ^ t) & ~caps, depth - 1, term)
            else:
                _js_wman(p, b, empty, 0, seqs)
                for t, caps in seqs:
                    nk = k & ~caps
                    if t & ROW0:
                        nk |= t
                    total += perft_b(b ^ caps, w ^ p ^ t, nk, depth - 1, term)
        return total or term
    d4 = empty & (w >> 4)
    d5 = empty & (w >> 5)
    if wk:
        u4 = empty & (wk << 4)
        u5 = empty & (wk << 5)
    else:
        u4 = u5 = 0
    if depth == 1:
        return (popcount(d4) + popcount(d5) + popcount(u4) + popcount(u5)) or term
    d1 = depth - 1
    total = 0
    if depth == 2:
        count = count_b
        while d4:
            t = d4 & -d4
            d4 ^= t
            s = t << 4
            m = s | t
            if s & k:
                total += count(b, w ^ m, k ^ m) or term
            elif t & ROW0:
                total += count(b, w ^ m, k | t) or term
            else:
                total += count(b, w ^ m, k) or term
        while d5:
            t = d5 & -d5
            d5 ^= t
            s = t << 5
            m = s | t
            if s & k:
                total += count(b, w ^ m, k ^ m) or term
            elif t & ROW0:
                total += count(b, w ^ m, k | t) or term
            else:
                total += count(b, w ^ m, k) or term
        while u4:
            t = u4 & -u4
            u4 ^= t
            m = t | (t >> 4)
            total += count(b, w ^ m, k ^ m) or term
        while u5:
            t = u5 & -u5
            u5 ^= t
            m = t | (t >> 5)
            total += count(b, w ^ m, k ^ m) or term
        return total or term
    rec = perft_b
    while d4:
        t = d4 & -d4
        d4 ^= t
        s = t << 4
        m = s | t
        if s & k:
            total += rec(b, w ^ m, k ^ m, d1, term)
        elif t & ROW0:
            total += rec(b, w ^ m, k | t, d1, term)
        else:
            total += rec(b, w ^ m, k, d1, term)
    while d5:
        t = d5 & -d5
        d5 ^= t
        s = t << 5
        m = s | t
        if s & k:
            total += rec(b, w ^ m, k ^ m, d1, term)
        elif t & ROW0:
            total += rec(b, w ^ m, k | t, d1, term)
        else:
            total += rec(b, w ^ m, k, d1, term)
    while u4:
        t = u4 & -u4
        u4 ^= t
        m = t | (t >> 4)
        total += rec(b, w ^ m, k ^ m, d1, term)
    while u5:
        t = u5 & -u5
        u5 ^= t
        m = t | (t >> 5)
        total += rec(b, w ^ m, k ^ m, d1, term)
    return total or term


def count_b(b: int, w: int, k: int) -> int:
    """Number of legal moves for Black (a whole jump sequence counts once): perft(1), inlined for speed."""
    empty = VALID & ~(b | w)
    bk = b & k
    jumpers = b & (((w >> 4) & (empty >> 8)) | ((w >> 5) & (empty >> 10)))
    if bk:
        jumpers |= bk & (((w << 4) & (empty << 8)) | ((w << 5) & (empty << 10)))
        if not jumpers:
            return (popcount(empty & (b << 4)) + popcount(empty & (b << 5))
                    + popcount(empty & (bk >> 4)) + popcount(empty & (bk >> 5)))
    elif not jumpers:
        return popcount(empty & (b << 4)) + popcount(empty & (b << 5))
    n = 0
    while jumpers:
        p = jumpers & -jumpers
        jumpers ^= p
        if p & k:
            n += _jc_king(p, w, empty | p)
        else:
            n += _jc_bman(p, w, empty)
    return n


def count_w(b: int, w: int, k: int) -> int:
    """Number of legal moves for White: perft(1), inlined for speed."""
    empty = VALID & ~(b | w)
    wk = w & k
    jumpers = w & (((b << 4) & (empty << 8)) | ((b << 5) & (empty << 10)))
    if wk:
        jumpers |= wk & (((b >> 4) & (empty >> 8)) | ((b >> 5) & (empty >> 10)))
        if not jumpers:
            return (popcount(empty & (w >> 4)) + popcount(empty & (w >> 5))
                    + popcount(empty & (wk << 4)) + popcount(empty & (wk << 5)))
    elif not jumpers:
        return popcount(empty & (w >> 4)) + popcount(empty & (w >> 5))
    n = 0
    while jumpers:
        p = jumpers & -jumpers
        jumpers ^= p
        if p & k:
            n += _jc_king(p, b, empty | p)
        else:
            n += _jc_wman(p, b, empty)
    return n
