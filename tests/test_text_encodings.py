# ruff: noqa: RUF001  (texts in other scripts are the point of these tests)
"""Text files in encodings they do not name: legacy code pages, UTF-16/32 without a BOM, ISO-2022.

The texts are written for these tests. Each is encoded in a code page of its
script and must decode back exactly; Western text must stay cp1252.
"""

from __future__ import annotations

import builtins
import logging
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import sectionrag
from sectionrag.errors import ParseError
from sectionrag.parsers._source import decode_text

RUSSIAN = (
    "Отчёт о работе библиотеки за прошлый год\n\n"
    "В прошлом году библиотека получила более двух тысяч новых книг. Читатели чаще всего "
    "брали художественную литературу, учебники и справочники. Зал для занятий был открыт "
    "каждый день, кроме воскресенья. В следующем году мы планируем обновить каталог и "
    "провести несколько встреч с местными писателями.\n"
)
GREEK = (
    "Οδηγίες χρήσης της συσκευής\n\n"
    "Πριν από την πρώτη χρήση διαβάστε προσεκτικά όλες τις οδηγίες. Η συσκευή πρέπει να "
    "τοποθετείται σε σταθερή επιφάνεια, μακριά από νερό και πηγές θερμότητας. Καθαρίζετε "
    "το φίλτρο κάθε μήνα και αντικαθιστάτε το μία φορά τον χρόνο.\n"
)
HEBREW = (
    "מדריך למשתמש החדש\n\n"
    "לפני השימוש הראשון יש לקרוא את כל ההוראות בעיון. המכשיר צריך לעמוד על משטח יציב, "
    "הרחק ממים וממקורות חום. יש לנקות את המסנן בכל חודש ולהחליף אותו פעם בשנה.\n"
)
CHINESE = (
    "图书馆年度工作报告\n\n"
    "去年图书馆共新增图书两千多册。读者借阅最多的是文学作品、教材和工具书。"
    "阅览室除星期日外每天开放。明年我们计划更新目录系统，并邀请本地作家举办几次读书交流活动。\n"
)
TRADITIONAL = (
    "圖書館年度工作報告\n\n"
    "去年圖書館共新增圖書兩千多冊。讀者借閱最多的是文學作品、教材和工具書。"
    "閱覽室除星期日外每天開放。明年我們計劃更新目錄系統，並邀請本地作家舉辦幾次讀書交流活動。\n"
)
JAPANESE = (
    "図書館の年次報告\n\n"
    "昨年、図書館では二千冊以上の新しい本を受け入れました。利用者が最も多く借りたのは、"
    "文学作品と教科書と辞書でした。閲覧室は日曜日を除いて毎日開いていました。"
    "来年は目録を新しくし、地元の作家との読書会を何度か開く予定です。\n"
)
KOREAN = (
    "도서관 연간 보고서\n\n"
    "작년에 도서관은 이천 권이 넘는 새 책을 들여왔습니다. 이용자들이 가장 많이 빌린 책은 "
    "문학 작품과 교과서와 사전이었습니다. 열람실은 일요일을 빼고 매일 열었습니다. "
    "내년에는 목록을 새로 만들고 지역 작가들과 독서 모임을 몇 번 열 계획입니다.\n"
)
POLISH = (
    "Sprawozdanie roczne biblioteki\n\n"
    "W zeszłym roku biblioteka otrzymała ponad dwa tysiące nowych książek. Czytelnicy "
    "najczęściej wypożyczali powieści, podręczniki i słowniki. Czytelnia była otwarta "
    "codziennie oprócz niedzieli. W przyszłym roku chcemy zmienić katalog i zaprosić "
    "miejscowych pisarzy na kilka spotkań. Dziękujemy wszystkim, którzy przyszli, i liczymy, "
    "że będą z nami także w przyszłości; każda wizyta jest dla nas ważna.\n"
)
CZECH = (
    "Výroční zpráva knihovny\n\n"
    "V loňském roce knihovna získala přes dva tisíce nových knih. Čtenáři si nejčastěji "
    "půjčovali romány, učebnice a slovníky. Studovna byla otevřena každý den kromě neděle. "
    "Příští rok chceme obnovit katalog a pozvat místní spisovatele na několik setkání; "
    "děkujeme všem, kteří přišli, a těšíme se na další návštěvy. Šťastný nový rok!\n"
)
HUNGARIAN = (
    "A könyvtár éves jelentése\n\n"
    "Tavaly a könyvtár több mint kétezer új könyvet kapott. Az olvasók leggyakrabban "
    "regényeket, tankönyveket és szótárakat kölcsönöztek. Az olvasóterem vasárnap kivételével "
    "minden nap nyitva volt. Jövőre szeretnénk megújítani a katalógust, és több "
    "találkozót szervezünk helyi írókkal; köszönjük mindenkinek, aki eljött, és várjuk "
    "őket a következő évben is. A tűzoltók is meglátogattak minket.\n"
)
TURKISH = (
    "Kütüphanenin yıllık raporu\n\n"
    "Geçen yıl kütüphaneye iki binden fazla yeni kitap geldi. Okuyucular en çok roman, "
    "ders kitabı ve sözlük ödünç aldı. Okuma salonu pazar günü dışında her gün açıktı. "
    "Gelecek yıl kataloğu yenilemeyi ve yerel yazarlarla birkaç buluşma düzenlemeyi "
    "planlıyoruz; gelen herkese teşekkür ederiz. İstanbul'dan gelen okurlar da çoğaldı.\n"
)
LITHUANIAN = (
    "Bibliotekos metinė ataskaita\n\n"
    "Praėjusiais metais biblioteka gavo daugiau nei du tūkstančius naujų knygų. Skaitytojai "
    "dažniausiai skolinosi romanus, vadovėlius ir žodynus. Skaitykla buvo atvira kiekvieną "
    "dieną, išskyrus sekmadienį. Kitais metais ketiname atnaujinti katalogą ir pakviesti "
    "vietos rašytojus į kelis susitikimus; dėkojame visiems, kurie atėjo.\n"
)
WESTERN = {
    "german": "Die Bücher wurden über den Hof getragen; Fräulein Müller öffnete die Tür und "
    "grüßte die Gäste. Später saßen alle im großen Saal, tranken Kaffee und aßen Kuchen.",
    "spanish": "El año pasado la biblioteca recibió más de dos mil libros. Los lectores "
    "pidieron novelas, diccionarios y manuales; la señora García organizó reuniones "
    "¿quién sabe cuántas? con escritores de la región y niños del barrio.",
    "portuguese": "No ano passado a biblioteca recebeu mais de dois mil livros. As edições "
    "antigas estão na sala de leitura; não há exceções, e a coleção de poesia já é a "
    "maior da região. Vovó João contou histórias às crianças.",
    "danish": "Sidste år fik biblioteket mere end to tusind nye bøger. Læserne lånte især "
    "romaner, og læsesalen var åben hver dag undtagen søndag; næste år får vi flere "
    "møder med forfattere fra området og små børn.",
    "icelandic": "Á síðasta ári fékk bókasafnið meira en tvö þúsund nýjar bækur. Lesendur "
    "fengu helst skáldsögur að láni og lesstofan var opin alla daga nema sunnudaga; "
    "þá komu höfundar í heimsókn.",
    "italian": "L'anno scorso la biblioteca ha ricevuto più di duemila libri. La sala di "
    "lettura è stata aperta ogni giorno, e perciò molti lettori sono tornati; però "
    "la città ha chiesto più attività per le scuole così com'è già successo.",
    "french and german": "Le château était à côté du marché. Über die Brücke gingen die "
    "Männer zur Kirche; à la fin, tout le monde était très fatigué et müde, même les élèves "
    "et les Schüler.",
}
FRENCH = (
    "Rapport annuel de la bibliothèque\n\n"
    "L'année dernière, la bibliothèque a reçu plus de deux mille livres. Les lecteurs ont "
    "surtout emprunté des romans, des manuels et des dictionnaires. La salle d'étude était "
    "ouverte tous les jours sauf le dimanche. L'année prochaine, nous prévoyons de rénover le "
    "catalogue et d'organiser des rencontres avec des écrivains de la région ; déjà, "
    "« été » et « noël » sont des thèmes choisis. Voyelles accentuées : áéíóú àèìòù âêîôû äëïöü.\n"
)


def parse_bytes(tmp_path: Path, data: bytes, name: str = "doc.txt") -> sectionrag.Document:
    p = tmp_path / name
    p.write_bytes(data)
    return sectionrag.parse(p)


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        (RUSSIAN, "cp1251"),
        (RUSSIAN, "koi8_r"),
        (GREEK, "iso8859_7"),
        (HEBREW, "cp1255"),
        (CHINESE, "gb18030"),
        (TRADITIONAL, "big5"),
        (JAPANESE, "cp932"),
        (JAPANESE, "euc_jp"),
        (KOREAN, "cp949"),
        (POLISH, "iso8859_2"),
        (POLISH, "cp1250"),
        (CZECH, "cp1250"),
        (CZECH, "iso8859_2"),
        (HUNGARIAN, "cp1250"),
        (HUNGARIAN, "iso8859_2"),
        (TURKISH, "cp1254"),
        (TURKISH, "iso8859_9"),
        (LITHUANIAN, "cp1257"),
    ],
)
def test_a_legacy_code_page_decodes_back_exactly(tmp_path: Path, text: str, encoding: str) -> None:
    data = text.encode(encoding)
    doc = parse_bytes(tmp_path, data)
    assert doc.text == text
    assert data.decode(doc.metadata["encoding"]) == text  # the encoding recorded reads the file
    for chunk in sectionrag.chunker("sentence", size=24).chunk(doc):
        assert doc.text[chunk.start : chunk.end] == chunk.text


@pytest.mark.parametrize("encoding", ["cp1252", "latin-1"])
def test_western_text_stays_cp1252_even_with_runs_of_accents(tmp_path: Path, encoding: str) -> None:
    doc = parse_bytes(tmp_path, FRENCH.encode(encoding))
    assert doc.text == FRENCH and doc.metadata["encoding"] == "cp1252"


@pytest.mark.parametrize("language", sorted(WESTERN))
def test_western_languages_stay_cp1252(tmp_path: Path, language: str) -> None:
    # (their letters read in cp1250 or cp1254 as Czech, Slovak or Turkish ones: "è" as "č")
    text = WESTERN[language] + "\n"
    doc = parse_bytes(tmp_path, text.encode("cp1252"))
    assert doc.text == text and doc.metadata["encoding"] == "cp1252"


_WESTERN_LETTERS = {
    "french": "àâæçéèêëîïôœùûüÿ",
    "german": "äöüß",
    "spanish": "áéíñóúü",
    "danish": "æøåéó",
    "icelandic": "áðéíóúýþæö",
    "italian": "àèéìíîòóùú",
}


@settings(max_examples=80, deadline=None)
@given(data=st.data(), language=st.sampled_from(sorted(_WESTERN_LETTERS)))
def test_any_text_in_one_western_alphabet_stays_cp1252(data: st.DataObject, language: str) -> None:
    letters = _WESTERN_LETTERS[language]
    word = st.text(alphabet="abcdefghijklmnoprstuvwyz" + letters + letters.upper(), min_size=1, max_size=12)
    text = " ".join(data.draw(st.lists(word, min_size=20, max_size=80))) + "\n"
    raw = text.encode("cp1252")
    try:
        raw.decode("utf-8")  # (ASCII, or accents that happen to spell UTF-8, read as UTF-8)
    except UnicodeDecodeError:
        assert decode_text(raw, "x.txt") == (text, "cp1252")
    else:
        assume(False)


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_unicode_without_a_byte_order_mark(tmp_path: Path, encoding: str) -> None:
    doc = parse_bytes(tmp_path, (RUSSIAN + FRENCH).encode(encoding))
    assert doc.text == RUSSIAN + FRENCH and doc.metadata["encoding"] == encoding


def test_utf32_with_a_byte_order_mark_is_not_read_as_utf16(tmp_path: Path) -> None:
    doc = parse_bytes(tmp_path, FRENCH.encode("utf-32"))  # FF FE 00 00 begins as UTF-16's BOM
    assert doc.text == FRENCH and doc.metadata["encoding"] == "utf-32"


def test_iso_2022_jp_is_decoded(tmp_path: Path) -> None:
    doc = parse_bytes(tmp_path, JAPANESE.encode("iso2022_jp"))
    assert doc.text == JAPANESE and doc.metadata["encoding"] == "iso2022_jp"


def test_binary_bytes_are_still_refused(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match="binary"):
        parse_bytes(tmp_path, b"# Title\n\nsome\x00text\n")


def test_html_without_a_charset_is_decoded_too(tmp_path: Path) -> None:
    html = f"<html><body><h1>Отчёт</h1><p>{RUSSIAN}</p></body></html>"
    doc = parse_bytes(tmp_path, html.encode("cp1251"), "page.html")
    assert "библиотека получила" in doc.text and doc.metadata["encoding"] == "cp1251"


def test_without_charset_normalizer_a_warning_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    real_import = builtins.__import__

    def no_guesser(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("charset_normalizer"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_guesser)
    with caplog.at_level(logging.WARNING, logger="sectionrag"):
        doc = parse_bytes(tmp_path, RUSSIAN.encode("cp1251"))
    assert doc.metadata["encoding"] == "cp1252"
    assert "pip install charset-normalizer" in caplog.text


_TEXT = st.text(
    alphabet=st.characters(
        codec="utf-8", exclude_categories=("Cc", "Cs", "Co", "Cn"), exclude_characters="\ufeff"
    ),
    min_size=1,
    max_size=60,
)


@settings(max_examples=60, deadline=None)
@given(words=st.lists(_TEXT, min_size=1, max_size=8), encoding=st.sampled_from(["utf-16-le", "utf-16-be"]))
def test_any_text_in_utf16_without_a_bom_decodes_back(words: list[str], encoding: str) -> None:
    text = " ".join(words) + "\n"  # the space and the line break put NULs in the bytes
    assert decode_text(text.encode(encoding), "x.txt") == (text, encoding)


@settings(max_examples=200, deadline=None)
@given(data=st.binary(min_size=1, max_size=300))
def test_any_bytes_decode_or_are_refused_as_binary(data: bytes) -> None:
    try:
        text, encoding = decode_text(data, "x.txt")
    except ParseError as exc:
        assert "binary" in str(exc)
    else:
        assert isinstance(text, str) and "\r" not in text and encoding


@pytest.mark.parametrize("encoding", ["utf-32", "utf-16", "utf-16-le", "utf-32-be"])
def test_html_in_utf16_or_utf32_is_still_html_without_an_extension(tmp_path: Path, encoding: str) -> None:
    html = f"<!DOCTYPE html><html><body><h1>Отчёт</h1><p>{FRENCH}</p></body></html>"
    doc = parse_bytes(tmp_path, html.encode(encoding), "page")
    assert doc.metadata["format"] == "html" and doc.sections[0].title == "Отчёт"
