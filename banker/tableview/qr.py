"""The page's address as a QR code a phone camera reads off the terminal.

``qr_text`` draws two module rows per text line with half blocks: ``█`` (both dark), ``▀``
(top dark), ``▄`` (bottom dark) and a space (both light). The glyphs are the DARK modules: shown
dark on a light background (the console's dialog and ``banker serve`` on a terminal set the
colours), that is a QR code as printed on paper, which every reader decodes.
"""

from __future__ import annotations

#: the quiet zone around the code, in modules (the standard asks for 4; readers cope with 2,
#: and 2 keeps a 29-module code within 17 lines of an 80x24 terminal)
BORDER = 2

_BLOCKS = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}

#: black on bright white, for a terminal whose colours are not known (banker serve)
ANSI_DARK_ON_LIGHT = "\x1b[30;107m"
ANSI_RESET = "\x1b[0m"


def qr_matrix(url: str, border: int = BORDER) -> list[list[bool]]:
    """The modules of the QR code for ``url`` (True = dark), quiet zone included.

    Error correction L: the code is read off a clean, high-contrast screen, and the lowest level
    keeps an address of up to 53 bytes in a version-3 code (29 modules)."""
    import qrcode
    from qrcode.constants import ERROR_CORRECT_L

    code = qrcode.QRCode(version=None, error_correction=ERROR_CORRECT_L, border=border)
    code.add_data(url.encode("utf-8"))
    code.make(fit=True)
    return [[bool(m) for m in row] for row in code.get_matrix()]


def matrix_text(matrix: list[list[bool]]) -> str:
    """Two rows of modules per line, as half blocks (see the module docstring)."""
    lines = []
    width = len(matrix[0]) if matrix else 0
    for top in range(0, len(matrix), 2):
        upper = matrix[top]
        lower = matrix[top + 1] if top + 1 < len(matrix) else [False] * width
        lines.append("".join(_BLOCKS[(a, b)] for a, b in zip(upper, lower, strict=True)))
    return "\n".join(lines)


def qr_text(url: str, border: int = BORDER) -> str:
    """The QR code for ``url`` as terminal text: dark modules are the glyphs (show it dark on light)."""
    return matrix_text(qr_matrix(url, border))


def text_matrix(text: str) -> list[list[bool]]:
    """The modules back from :func:`qr_text`'s lines (what a test decodes)."""
    rows: list[list[bool]] = []
    for line in text.split("\n"):
        rows.append([c in "█▀" for c in line])
        rows.append([c in "█▄" for c in line])
    return rows


def qr_size(url: str, border: int = BORDER) -> tuple[int, int]:
    """(columns, lines) the code takes on a terminal."""
    n = len(qr_matrix(url, border))
    return n, (n + 1) // 2


def ansi_qr_text(url: str, border: int = BORDER) -> str:
    """:func:`qr_text` with each line coloured black on white, for a terminal of unknown colours."""
    return "\n".join(f"{ANSI_DARK_ON_LIGHT}{line}{ANSI_RESET}" for line in qr_text(url, border).split("\n"))
