// A second feed reader for the tzdb feeds: mmcdole/gofeed (Debian's
// golang-github-mmcdole-gofeed-dev), which reads Atom and JSON Feed. Prints what it parsed
// as JSON; any parse error exits 1.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/mmcdole/gofeed"
)

type item struct {
	Title     string `json:"title"`
	Link      string `json:"link"`
	Published string `json:"published"`
	Content   string `json:"content"`
}

func main() {
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	feed, err := gofeed.NewParser().Parse(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	items := []item{}
	for _, i := range feed.Items {
		content := i.Content
		if content == "" {
			content = i.Description
		}
		items = append(items, item{i.Title, i.Link, i.Published, content})
	}
	out, _ := json.Marshal(map[string]any{"type": feed.FeedType, "version": feed.FeedVersion, "title": feed.Title, "items": items})
	fmt.Println(string(out))
}
