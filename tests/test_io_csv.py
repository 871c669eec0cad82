"""read_csv (iaa_widgets.data) over iaa_widgets.io.csv: blank label cells are missing
ratings counted in the data and in every result; errors name the file's line (the header
is line 1, quoted line breaks and skipped lines counted), the item and the annotator.
Line numbers are those of the files written here, counted by hand."""
import numpy as np
import pandas as pd
import pytest

from iaa_widgets.io.csv import read_csv
from iaa_widgets.errors import AgreementError
from iaa_widgets.io.csv import Lines
from iaa_widgets.measures.categorical.classic import cohen_kappa


def write(tmp_path, text, name="r.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_blank_label_cells_are_missing_and_reported(tmp_path):
    path = write(tmp_path, "item,annotator,label\n1,a,x\n1,b,\n2,a,y\n2,b,  \n3,a,x\n3,b,x\n"
                           "4,a,y\n4,b,y\n")
    ann = read_csv(path)
    assert ann.n_blank == 2 and ann.n_ratings == 6  # line 3 empty, line 5 whitespace
    assert any("2 blank label(s)" in n for n in ann.notes)
    result = cohen_kappa(ann)
    assert result.params["blank_labels"] == 2 and "2 blank label(s)" in result.note
    # the same ratings typed as a table, blanks left out: the same κ
    table = pd.DataFrame({"item": [1, 2, 3, 3, 4, 4], "annotator": list("aaabab"),
                          "label": list("xyxxyy")})
    assert np.isclose(result.value, cohen_kappa(table).value)


def test_wide_layout_blank_cells_alike(tmp_path):
    long = read_csv(write(tmp_path, "item,annotator,label\n1,a,x\n1,b,\n2,a,y\n2,b,y\n"))
    wide = read_csv(write(tmp_path, "item,a,b\n1,x,\n2,y,y\n", "w.csv"), layout="wide")
    assert long.n_ratings == wide.n_ratings == 3
    assert wide.to_long().equals(long.to_long())


def test_errors_name_line_item_and_annotator(tmp_path):
    path = write(tmp_path, "item,annotator,label\n1,a,x\n,b,y\n")
    with pytest.raises(AgreementError, match="r.csv, line 3 \\(item nan, annotator 'b'\\)"):
        read_csv(path)
    # a quoted line break and a comment line shift the lines
    text = 'item,annotator,label\n1,a,x\n1,b,y\n# note\n2,a,"two\nlines"\n2,b,y\n1,a,z\n'
    path = write(tmp_path, text)
    with pytest.raises(AgreementError, match="line 2 \\(item 1, annotator 'a'\\), line 8 "
                                             "\\(item 1, annotator 'a'\\)"):
        read_csv(path, comment="#")
    with pytest.raises(AgreementError, match="outside the declared categories .* line 3 "
                                             "\\(item 1, annotator 'b'\\)"):
        read_csv(write(tmp_path, "item,annotator,label\n1,a,x\n1,b,w\n"), categories=["x", "y"])


def test_skiprows_as_a_list_keeps_line_numbers(tmp_path):
    text = 'item,annotator,label\n1,a,x\n1,b,y\n# note\n2,a,"two\nlines"\n2,b,y\n1,a,z\n'
    path = write(tmp_path, text)
    # pandas counts records: 3 is the comment, 2 the line '1,b,y'
    with pytest.raises(AgreementError, match="line 2 \\(item 1, annotator 'a'\\), line 8"):
        read_csv(path, skiprows=[3])
    assert read_csv(path, skiprows=[3, 6]).n_ratings == 4  # record 6: '1,a,z'
    lines = Lines(path, {"skiprows": [2, 3]}, [1, 2], ["a", "a"])
    assert lines.name_rows([0, 1]).endswith("line 2 (item 1, annotator 'a'), line 5 (item 2, "
                                           "annotator 'a')")


def test_a_table_in_memory_is_refused_with_what_to_do():
    """read_csv reads files: a DataFrame was pandas' raw 'Invalid file path or buffer'
    (found by tests/test_fuzz_public.py)."""
    import pandas as pd
    import pytest
    import iaa_widgets as iaa
    with pytest.raises(iaa.AgreementError, match="not a DataFrame; pass a table in memory"):
        iaa.read_csv(pd.DataFrame({"item": [1], "annotator": ["a"], "label": ["x"]}))
