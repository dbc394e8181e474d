// The shape of a guide, in a module of its own: guides.ts lists the guides and the
// guides-*.ts files supply some of them, so the type lives where none of them imports
// the others back.

export interface Guide {
  slug: string;
  title: string;
  summary: string;
  html: string;
}
