// Enhancement only: a live preview of the page being edited, rendered in the browser (never on
// the server's event loop) by the sanitising Markdown renderer the site uses for untrusted
// OpenAPI descriptions: raw HTML and MDX components are dropped, so it shows the text, headings,
// lists, links, tables and code; the built site renders components too. Without script the
// preview stays hidden and saving checks the page as the API does.
import { markdownToSafeHtml } from '../../site/openapi/markdown.ts';

const source = document.querySelector<HTMLTextAreaElement>('textarea[data-preview]');
const target = source && document.getElementById(source.dataset.preview!);
if (source && target) {
  const section = target.closest<HTMLElement>('section') ?? target;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const render = () => {
    // Sanitised by rehype-sanitize; the console's CSP refuses any script besides.
    target.innerHTML = markdownToSafeHtml(source.value);
  };
  render();
  section.hidden = false;
  source.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(render, 250);
  });
}
export {};
