// The table of contents marks the section being read (aria-current="true"; its item gets
// `data-active`, the attribute Mintlify documents for custom CSS: `.toc-item[data-active]`): the
// last heading that has scrolled past the top of the window.
const links = [...document.querySelectorAll<HTMLAnchorElement>('.toc a[href^="#"]')];
const headings = links.map((a) => document.getElementById(decodeURIComponent(a.hash.slice(1)))).filter((h): h is HTMLElement => !!h);

if (headings.length && getComputedStyle(document.querySelector('.toc')!).display !== 'none') {
  const mark = () => {
    const top = headings.filter((h) => h.getBoundingClientRect().top < window.innerHeight / 3).at(-1) ?? headings[0];
    for (const a of links) {
      const current = a.hash === `#${top?.id}`;
      a.setAttribute('aria-current', String(current));
      a.parentElement?.toggleAttribute('data-active', current);
    }
  };
  // Called whenever a heading crosses the line a third down the window.
  const observer = new IntersectionObserver(mark, { rootMargin: '0px 0px -66% 0px' });
  headings.forEach((h) => observer.observe(h));
}
