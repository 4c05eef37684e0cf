#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A measurement aid, not part of Koma. USI adapter: Fairy-Stockfish playing [spear-seedview], speaking Koma's Spear USI.

Koma's Spear USI (shogi convention: sente = the rules' Black, upper case in SFEN,
at the bottom of the SFEN board, files 1-5, ranks a-e) is translated to FSF's
[spear-seedview] variant, which is the same game in the seed's own view and,
unlike [spear], handles a silver dropped into the zone and moving out of it
exactly as Koma does.

FSF is run in USI mode. Its seedview square a1 is the rules' square 11, which
is Koma's USI square 1a; FSF's USI mode prints square (file F, rank R) as
(6-F, 'a'+5-R), so between Koma's USI and FSF's USI every square is turned
by 180 degrees: file f -> 6-f, rank a<->e, b<->d, c<->c.  Other differences:
  - the elephant is B in Koma, E in seedview (drops: B*3c <-> E*3c);
  - a silver promotes with the suffix 't' in seedview ('+' in Koma); the other
    pieces use '+' in both;
  - FEN: the board string is the SFEN board turned by 180 degrees with the
    letter case swapped (Koma's sente = FSF black = lower case); a promoted
    silver is 'T~'/'t~', the other promoted pieces '+X'; hands go in [..];
    the side letter is the same ('b' = sente = FSF black moves first);
  - in USI mode FSF reads btime/binc as FSF white's, and FSF white is Koma's
    gote here, so btime<->wtime and binc<->winc are swapped.
Scores need no change: FSF reports them from the side to move's view.

Usage (koma match): --engine2 "cmd=python3 scripts/fsf-spear-seedview.py" ...
FSF is fetched and built in /tmp for a measurement and never committed; this
file only translates the notation (see docs/STRENGTH.md).
Environment: FSF_BIN, FSF_VARIANTS override the engine and variants.ini paths.
"""
import os
import re
import subprocess
import sys
import threading

FSF_BIN = os.environ.get("FSF_BIN", "/tmp/fsf/src/stockfish")
FSF_VARIANTS = os.environ.get("FSF_VARIANTS", "/work/shared/fsf/variants.ini")
FSF_VARIANT = "spear-seedview"
KOMA_VARIANT = "spear"
START_SFEN = "lbsgk/4p/5/P4/KGSBL b - 1"

SQ_RE = re.compile(r"^[1-5][a-e]$")


# ---------------------------------------------------------------- squares, moves

def rot(sq):
    """Koma USI square <-> FSF (seedview, USI mode) square: 180-degree turn."""
    return str(6 - int(sq[0])) + chr(ord("a") + ord("e") - ord(sq[1]))


def koma_to_fsf_move(mv, board):
    """Koma USI move -> FSF seedview USI move. board: {koma square: sfen token}."""
    if len(mv) >= 4 and mv[1] == "*":
        p = mv[0].upper()
        return ("E" if p == "B" else p) + "*" + rot(mv[2:4])
    if len(mv) < 4 or not SQ_RE.match(mv[0:2]) or not SQ_RE.match(mv[2:4]):
        return mv
    out = rot(mv[0:2]) + rot(mv[2:4])
    if mv[4:] == "+":
        piece = board.get(mv[0:2], "")
        out += "t" if piece.upper() == "S" else "+"
    return out


def fsf_to_koma_move(mv):
    """FSF seedview USI move -> Koma USI move (no board needed)."""
    if len(mv) >= 4 and mv[1] == "*" and SQ_RE.match(mv[2:4]):
        p = mv[0].upper()
        return ("B" if p == "E" else p) + "*" + rot(mv[2:4])
    if len(mv) >= 4 and SQ_RE.match(mv[0:2]) and SQ_RE.match(mv[2:4]):
        suffix = mv[4:]
        if suffix in ("t", "T", "+"):
            suffix = "+"
        return rot(mv[0:2]) + rot(mv[2:4]) + suffix
    return mv  # resign, win, (none), 0000 ...


# ---------------------------------------------------------------- positions

def parse_sfen(sfen):
    """Koma SFEN -> (board {sq: token like 'S', '+s'}, side, hands {letter: n}, ply)."""
    f = sfen.split()
    if len(f) < 3:
        raise ValueError("bad sfen: " + sfen)
    rows = f[0].split("/")
    if len(rows) != 5:
        raise ValueError("bad sfen board: " + sfen)
    board = {}
    for ri, row in enumerate(rows):
        rank = chr(ord("a") + ri)
        file = 5
        i = 0
        while i < len(row):
            c = row[i]
            if c.isdigit():
                file -= int(c)
                i += 1
                continue
            tok = c
            if c == "+":
                tok = row[i:i + 2]
                i += 1
            i += 1
            board[str(file) + rank] = tok
            file -= 1
        if file != 0:
            raise ValueError("bad sfen rank: " + row)
    side = f[1]
    hands = {}
    if f[2] != "-":
        n = ""
        for c in f[2]:
            if c.isdigit():
                n += c
            else:
                hands[c] = hands.get(c, 0) + (int(n) if n else 1)
                n = ""
    ply = int(f[3]) if len(f) > 3 and f[3].isdigit() else 1
    return board, side, hands, ply


def koma_token_to_fsf(tok):
    """SFEN token (sente upper) -> FEN token (sente = FSF black = lower)."""
    promoted = tok.startswith("+")
    base = tok[-1]
    letter = "e" if base.upper() == "B" else base.upper().lower()
    if promoted and base.upper() == "S":
        letter = "t"
    fsf = letter.lower() if base.isupper() else letter.upper()
    if promoted:
        return fsf + "~" if base.upper() == "S" else "+" + fsf
    return fsf


def encode_row(tokens):
    """One rank of a FEN or SFEN board: pieces, empty squares (None) counted."""
    row, empty = "", 0
    for tok in tokens:
        if tok is None:
            empty += 1
            continue
        if empty:
            row += str(empty)
            empty = 0
        row += tok
    if empty:
        row += str(empty)
    return row


def sfen_to_fen(sfen):
    board, side, hands, ply = parse_sfen(sfen)
    rows = []
    for r in range(5, 0, -1):          # FSF rank 5 first = Koma rank 'e'
        rank = chr(ord("a") + r - 1)
        # FSF file a..e = Koma file 1..5
        tokens = (board.get(str(file) + rank) for file in range(1, 6))
        rows.append(encode_row(None if t is None else koma_token_to_fsf(t) for t in tokens))
    hand = ""
    for letter in "RBGSNLPrbgsnlp":
        n = hands.get(letter, 0)
        if n:
            hand += koma_token_to_fsf(letter) * n
    fullmove = max(1, (ply + 1) // 2)
    return "%s[%s] %s - - 0 %d" % ("/".join(rows), hand, side, fullmove), board


def fen_to_sfen(fen):
    """FSF seedview FEN -> Koma SFEN (for checks)."""
    f = fen.split()
    b = f[0]
    hand = ""
    if "[" in b:
        b, hand = b.split("[", 1)
        hand = hand.rstrip("]")
    rows = b.split("/")
    board = {}
    for ri, row in enumerate(rows):          # FSF rank 5 first
        rank_num = 5 - ri
        file = 1
        i = 0
        while i < len(row):
            c = row[i]
            if c.isdigit():
                file += int(c)
                i += 1
                continue
            promoted = False
            if c == "+":
                promoted = True
                i += 1
                c = row[i]
            i += 1
            if i < len(row) and row[i] == "~":
                promoted = True
                i += 1
            up = c.upper()
            base = {"E": "B", "T": "S", "H": "B", "R": "L"}.get(up, up)
            if up == "T":
                promoted = True
            k = base if c.islower() else base.lower()   # case swap
            board[(file, chr(ord("a") + rank_num - 1))] = ("+" if promoted else "") + k
            file += 1
    srows = [encode_row(board.get((file, r)) for file in range(5, 0, -1)) for r in "abcde"]
    counts = {}
    for c in hand:
        up = c.upper()
        base = {"E": "B"}.get(up, up)
        k = base if c.islower() else base.lower()
        counts[k] = counts.get(k, 0) + 1
    h = ""
    for letter in "RBGSNLPrbgsnlp":
        n = counts.get(letter, 0)
        if n:
            h += (str(n) if n > 1 else "") + letter
    return "%s %s %s" % ("/".join(srows), f[1], h or "-")


def apply_koma_move(board, mv, side):
    """Update board {sq: token} with a Koma USI move; side 'b' or 'w' moves."""
    if len(mv) >= 4 and mv[1] == "*":
        p = mv[0].upper()
        board[mv[2:4]] = p if side == "b" else p.lower()
        return
    frm, to = mv[0:2], mv[2:4]
    tok = board.pop(frm, None)
    if tok is None:
        return
    if mv[4:] == "+" and not tok.startswith("+"):
        tok = "+" + tok
    board[to] = tok


# ---------------------------------------------------------------- the adapter

class Adapter:
    def __init__(self):
        self.proc = subprocess.Popen([FSF_BIN], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, bufsize=0)
        self.out = sys.stdout.buffer
        self.lock = threading.Lock()
        self.translate = True
        self.to_fsf("setoption name VariantPath value " + FSF_VARIANTS)

    def to_fsf(self, line):
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def to_parent(self, line):
        with self.lock:
            self.out.write((line + "\n").encode())
            self.out.flush()

    # FSF -> parent
    def translate_out(self, line):
        if not self.translate:
            return line
        t = line.split()
        if not t:
            return line
        if t[0] == "bestmove":
            for i in range(1, len(t)):
                if i == 1 or t[i - 1] == "ponder":
                    t[i] = fsf_to_koma_move(t[i])
            return " ".join(t)
        if t[0] == "info":
            if len(t) > 1 and t[1] == "string":
                return line
            in_pv = False
            for i in range(1, len(t)):
                if t[i] == "string":
                    break
                if in_pv:
                    t[i] = fsf_to_koma_move(t[i])
                elif t[i] == "pv":
                    in_pv = True
                elif t[i - 1] in ("currmove", "refutation"):
                    t[i] = fsf_to_koma_move(t[i])
            return " ".join(t)
        if len(t) == 2 and t[0].endswith(":") and t[1].isdigit():   # perft divide
            return fsf_to_koma_move(t[0][:-1]) + ": " + t[1]
        return line

    def reader(self):
        for raw in iter(self.proc.stdout.readline, b""):
            line = raw.decode(errors="replace").rstrip("\r\n")
            self.to_parent(self.translate_out(line))

    # parent -> FSF
    def translate_position(self, rest):
        moves = []
        if "moves" in rest:
            i = rest.index("moves")
            moves = rest[i + 1:]
            rest = rest[:i]
        if rest and rest[0] == "startpos":
            sfen = START_SFEN
            head = "position startpos"
        elif rest and rest[0] in ("sfen", "fen"):
            sfen = " ".join(rest[1:])
            fen, _ = sfen_to_fen(sfen)
            head = "position fen " + fen
        else:
            return None
        board, side, _, _ = parse_sfen(sfen)
        fmoves = []
        for mv in moves:
            fmoves.append(koma_to_fsf_move(mv, board))
            apply_koma_move(board, mv, side)
            side = "w" if side == "b" else "b"
        return head + (" moves " + " ".join(fmoves) if fmoves else "")

    def handle(self, line):
        t = line.split()
        if not t:
            return True
        cmd = t[0]
        if cmd == "usi":
            self.to_fsf(line)
            if self.translate:
                self.to_fsf("setoption name USI_Variant value " + FSF_VARIANT)
            return True
        if cmd == "setoption" and len(t) >= 5 and t[1] == "name" and \
                t[2] in ("USI_Variant", "UCI_Variant") and t[3] == "value":
            v = t[4]
            self.translate = v == KOMA_VARIANT
            self.to_fsf("setoption name %s value %s" % (t[2], FSF_VARIANT if self.translate else v))
            return True
        if cmd == "gameover":      # USI; FSF does not know it
            return True
        if self.translate and cmd == "position":
            try:
                tr = self.translate_position(t[1:])
            except (ValueError, IndexError, KeyError) as e:
                self.to_parent("info string adapter: bad position (%s)" % e)
                tr = None
            if tr is not None:
                self.to_fsf(tr)
            return True
        if self.translate and cmd == "go":
            swap = {"btime": "wtime", "wtime": "btime", "binc": "winc", "winc": "binc"}
            self.to_fsf(" ".join(swap.get(x, x) for x in t))
            return True
        self.to_fsf(line)
        return cmd != "quit"

    def run(self):
        th = threading.Thread(target=self.reader, daemon=True)
        th.start()
        inp = sys.stdin.buffer
        while True:
            raw = inp.readline()
            if not raw:
                self.to_fsf("quit")
                break
            if not self.handle(raw.decode(errors="replace").strip()):
                break
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        th.join(timeout=2)


if __name__ == "__main__":
    Adapter().run()
