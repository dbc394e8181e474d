// The official Go SDK pointed at zonetime through its WithBaseURL option.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"

	"googlemaps.github.io/maps"
)

func main() {
	client, err := maps.NewClient(maps.WithAPIKey("AIzaAnyKeyWorks"), maps.WithBaseURL(os.Args[1]))
	if err != nil {
		panic(err)
	}
	out := []any{}
	for i := 2; i+2 < len(os.Args)+1; i += 3 {
		lat, _ := strconv.ParseFloat(os.Args[i], 64)
		lng, _ := strconv.ParseFloat(os.Args[i+1], 64)
		at, _ := strconv.ParseInt(os.Args[i+2], 10, 64)
		r, err := client.Timezone(context.Background(), &maps.TimezoneRequest{Location: &maps.LatLng{Lat: lat, Lng: lng}, Timestamp: time.Unix(at, 0), Language: "en"})
		if err != nil {
			out = append(out, map[string]string{"error": err.Error()})
			continue
		}
		out = append(out, r)
	}
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
}
