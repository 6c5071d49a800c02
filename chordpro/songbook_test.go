package chordpro

import (
	"context"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"tele/board"
	"tele/costtest"
)

// TestWriteSongbook: the songs one after another, {new_song} between them, each as Write writes it.
func TestWriteSongbook(t *testing.T) {
	a, b := board.Example(), board.Example()
	a.Title, b.Title = "One", "Two"
	got := string(WriteSongbook([]board.Content{a, b}))
	want := string(Write(a)) + "\n{new_song}\n" + string(Write(b))
	if got != want || strings.Count(got, "{title:") != 2 {
		t.Fatalf("songbook:\n%s", got)
	}
}

// songbookBoards are three boards of every kind of thing a board holds: the example, a song with words,
// and a chart with repeats, endings and a D.S.
func songbookBoards(t *testing.T) []board.Content {
	data, err := os.ReadFile("testdata/blues-ds.json")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := board.ParseContent(data)
	if err != nil {
		t.Fatal(err)
	}
	ds.Description = "a blues\nwith a D.S."
	return []board.Content{board.Example(), lyricBoard(), ds}
}

// TestSongbookRoundTrip: a songbook Tele writes reads back as its songs, one chart each, with no note.
func TestSongbookRoundTrip(t *testing.T) {
	songs := songbookBoards(t)
	charts, err := ReadCharts(context.Background(), WriteSongbook(songs))
	if err != nil || len(charts) != len(songs) {
		t.Fatalf("%d charts, %v", len(charts), err)
	}
	for i, ch := range charts {
		if ch.Err != nil || !reflect.DeepEqual(ch.Content, songs[i]) || len(ch.Notes) > 0 || ch.Title != songs[i].Title {
			t.Errorf("song %d: %v, notes %q\nread %+v\nwant %+v", i+1, ch.Err, ch.Notes, ch.Content, songs[i])
		}
	}
}

// TestReadSongbook: where a songbook is cut into songs, and what a song that cannot be read gives.
func TestReadSongbook(t *testing.T) {
	grid := func(title string) string {
		return "{title: " + title + "}\n{start_of_grid}\n| C . . . |\n{end_of_grid}\n"
	}
	for _, tt := range []struct {
		name, file string
		titles     []string
		failed     map[int]string // a song's error
	}{
		{"one song", grid("A"), []string{"A"}, nil},
		{"new_song", grid("A") + "{new_song}\n" + grid("B"), []string{"A", "B"}, nil},
		{"ns, spaced and in capitals", grid("A") + "  {NS}  \r\n" + grid("B") + "{ns}\n" + grid("C"), []string{"A", "B", "C"}, nil},
		{"each song begun with new_song", "# songbook\n\n{new_song}\n" + grid("A") + "{new_song}\n" + grid("B") + "{new_song}\n\n", []string{"A", "B"}, nil},
		{"a song that cannot be read", grid("A") + "{ns}\n{title: Broken}\n{start_of_grid}\n| C . . . |\n", []string{"A", "Broken"},
			map[int]string{1: "line 9: the last grid has no {end_of_grid}"}},
		{"a song with no title", grid("A") + "{ns}\n{key: C}\n", []string{"A", "song 2"}, map[int]string{1: "no ChordPro grid"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			charts, err := ReadCharts(context.Background(), []byte(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			var titles []string
			for i, ch := range charts {
				titles = append(titles, ch.Title)
				want, fails := tt.failed[i]
				if fails != (ch.Err != nil) || fails && !strings.Contains(ch.Err.Error(), want) {
					t.Errorf("song %d: error %v, want %q", i+1, ch.Err, want)
				}
			}
			if !reflect.DeepEqual(titles, tt.titles) {
				t.Errorf("titles %q, want %q", titles, tt.titles)
			}
		})
	}
}

// TestReadChartsRefusals: a file of one song that cannot be read is refused as Read refuses it; so is a
// songbook over the limits, and a reading whose context has ended.
func TestReadChartsRefusals(t *testing.T) {
	if _, err := ReadCharts(context.Background(), []byte("{title: X}\n")); !errors.Is(err, ErrNoGrid) {
		t.Errorf("no grid: %v", err)
	}
	if _, err := ReadCharts(context.Background(), []byte(strings.Repeat("{title: X}\n{sog}\n| C |\n{eog}\n{ns}\n", MaxSongs+1))); err == nil || !strings.Contains(err.Error(), "more than 4096 songs") {
		t.Errorf("too many songs: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadCharts(ctx, []byte("{title: X}\n{sog}\n| C |\n{eog}\n")); !errors.Is(err, context.Canceled) {
		t.Errorf("ended: %v", err)
	}
}

// FuzzReadCharts: reading a songbook never panics, costs work linear in the file, and every song it
// reads is valid content.
func FuzzReadCharts(f *testing.F) {
	a, b := board.Example(), lyricBoard()
	f.Add(WriteSongbook([]board.Content{a, b}))
	f.Add([]byte("{ns}\n{title: A}\n{sog}\n| C |\n{eog}\n{new_song}\n\n{NS}\n{title: B}\n{sog}\n| C |\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var charts []board.Chart
		var err error
		costtest.Bound(t, len(data), 64<<10, 512, func() { charts, err = ReadCharts(context.Background(), data) })
		if err != nil {
			return
		}
		for _, ch := range charts {
			if ch.Err != nil {
				continue
			}
			if err := ch.Content.Validate(); err != nil {
				t.Fatalf("%s: invalid content: %v", ch.Title, err)
			}
		}
	})
}
