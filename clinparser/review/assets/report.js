// The review page: three linked panes built from the JSON in #report-data. No network, no
// libraries: everything it shows is in this file or in the output folder beside it.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const $ = (id) => document.getElementById(id);
  const sections = data.sections;
  const byId = new Map(sections.map((s) => [s.id, s]));
  const rows = new Map();      // section id -> tree <li>
  const pageDivs = new Map();  // page number -> .page div
  const boxesOf = new Map();   // section id -> [box elements]
  let selected = null;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function pagesLabel(p) {
    if (!p || p[0] == null) return "";
    return p[0] === p[1] ? "p. " + p[0] : "pp. " + p[0] + "–" + p[1];
  }

  // --- header -----------------------------------------------------------------------
  $("doc-name").textContent = data.source;
  $("doc-facts").textContent = [data.page_count + " pages", data.engine,
    sections.filter((s) => s.group === "toc").length + " numbered sections"].join(" · ");
  if (data.verdict) {  // the parse's own summary: "ok", "check: <reason>" or "unverified: ..."
    const v = $("verdict");
    v.textContent = "verdict: " + data.verdict;
    v.title = data.verdict;
    v.className = data.verdict === "ok" ? "ok" : "warn";
    v.hidden = false;
  }

  // --- section tree --------------------------------------------------------------------
  const tree = $("tree");
  for (const s of sections) {
    const li = el("li", s.group === "toc" ? "" : "front");
    li.setAttribute("role", "treeitem");
    li.dataset.id = s.id;
    li.style.setProperty("--depth", s.depth);
    li.title = (s.number ? s.number + " " : "") + s.title;
    if (s.number) li.append(el("span", "num", s.number));
    li.append(el("span", "title", s.title || "(untitled)"));
    for (const b of s.badges) li.append(el("span", "badge " + b.kind, b.text));
    li.append(el("span", "pg", pagesLabel(s.pages)));
    li.addEventListener("click", () => select(s.id, true));
    tree.append(li);
    rows.set(s.id, li);
  }
  $("n-sections").textContent = "(" + sections.length + ")";

  $("filter").addEventListener("input", () => {
    const q = $("filter").value.trim().toLowerCase();
    for (const s of sections) {
      const text = (s.number + " " + s.title).toLowerCase();
      rows.get(s.id).hidden = q !== "" && !text.includes(q);
    }
  });

  // --- pages with their boxes ----------------------------------------------------------------
  const pagesPane = $("pages");
  if (!data.pages.length) pagesPane.append(el("p", "hint", data.no_pages_reason));
  for (const p of data.pages) {
    const div = el("div", "page");
    div.id = "page-" + p.n;
    div.style.aspectRatio = p.w + " / " + p.h;
    div.dataset.n = p.n;
    if (p.img) {
      const img = el("img");
      img.loading = "lazy";
      img.decoding = "async";
      img.alt = "page " + p.n;
      img.src = p.img;
      div.append(img);
    } else {
      div.append(el("div", "noimg", "page " + p.n + ": no image (" + data.no_pages_reason + ")"));
    }
    div.append(el("span", "pno", p.note ? p.n + " · " + p.note : String(p.n)));
    pagesPane.append(div);
    pageDivs.set(p.n, div);
  }
  for (const b of data.boxes) {
    const div = pageDivs.get(b.page);
    if (!div || !b.bbox) continue;
    const p = data.pages[b.page - 1];
    const e = el("div", "box " + b.kind);
    e.style.left = (100 * b.bbox[0] / p.w) + "%";
    e.style.top = (100 * b.bbox[1] / p.h) + "%";
    e.style.width = (100 * (b.bbox[2] - b.bbox[0]) / p.w) + "%";
    e.style.height = (100 * (b.bbox[3] - b.bbox[1]) / p.h) + "%";
    e.title = b.label;
    if (b.kind === "start") e.append(el("span", "tag", b.label.split(" ")[0]));
    if (b.section) {
      e.dataset.section = b.section;
      if (!boxesOf.has(b.section)) boxesOf.set(b.section, []);
      boxesOf.get(b.section).push(e);
      if (b.kind !== "dropped") e.addEventListener("click", (ev) => { ev.stopPropagation(); select(b.section, false); });
    }
    div.append(e);
  }

  // --- content of the selected section ---------------------------------------------------------
  function showContent(s) {
    const c = $("content");
    c.replaceChildren();
    const h = el("h2", "", (s.number ? s.number + " " : "") + (s.title || "(untitled)"));
    c.append(h);
    const facts = [pagesLabel(s.pages), s.group === "toc" ? "level " + s.level : "outside the numbering (non_toc)"];
    if (s.start_note) facts.push(s.start_note);
    c.append(el("div", "meta", facts.filter(Boolean).join(" · ")));
    const body = el("div", "body");
    body.innerHTML = s.html;  // made by ClinParser from the section's Markdown, HTML escaped
    c.append(body);
    if (s.children.length) {
      const subs = el("div", "subs", "Subsections: ");
      s.children.forEach((id, i) => {
        const k = byId.get(id);
        const a = el("a", "", (k.number + " " + k.title).trim());
        a.addEventListener("click", () => select(id, true));
        if (i) subs.append(", ");
        subs.append(a);
      });
      c.append(subs);
    }
    c.scrollTop = 0;
  }

  function select(id, scrollPages) {
    const s = byId.get(id);
    if (!s) return;
    if (selected) {
      rows.get(selected).classList.remove("selected");
      rows.get(selected).removeAttribute("aria-selected");
      for (const e of boxesOf.get(selected) || []) e.classList.remove("sel");
    }
    selected = id;
    const row = rows.get(id);
    row.classList.add("selected");
    row.setAttribute("aria-selected", "true");
    row.scrollIntoView({ block: "nearest" });
    for (const e of boxesOf.get(id) || []) e.classList.add("sel");
    showContent(s);
    if (scrollPages) scrollToStart(s);
    history.replaceState(null, "", "#" + id);
  }

  function scrollToStart(s) {
    const mark = (boxesOf.get(s.id) || []).find((e) => e.classList.contains("start"));
    if (mark) { mark.scrollIntoView({ block: "start" }); pagesPane.scrollTop -= 40; return; }
    const page = s.pages && pageDivs.get(s.pages[0]);
    if (page) page.scrollIntoView({ block: "start" });
  }

  // --- diagnostics -----------------------------------------------------------------------------
  const diag = $("diag");
  $("n-diag").textContent = "(" + data.diagnostics.length + ")";
  if (!data.diagnostics.length) diag.append(el("li", "none", "No findings: every printed-TOC entry was found, numbering is continuous, every reference resolves."));
  data.diagnostics.forEach((d, i) => {
    const li = el("li");
    li.dataset.index = i;
    if (d.page != null) li.dataset.page = d.page;
    li.append(el("span", "kind", d.kind));
    li.append(el("span", "", d.label + " "));
    if (d.page != null) li.append(el("span", "where", "page " + d.page));
    li.addEventListener("click", () => {
      for (const old of diag.querySelectorAll("li.active")) old.classList.remove("active");
      li.classList.add("active");
      jumpTo(d);
    });
    diag.append(li);
  });

  function jumpTo(d) {
    if (d.section) select(d.section, false);
    const page = d.page != null && pageDivs.get(d.page);
    if (!page) return;
    for (const old of document.querySelectorAll(".page.target")) old.classList.remove("target");
    page.classList.add("target");
    page.scrollIntoView({ block: "start" });
  }

  function showTab(diagTab) {
    $("tab-tree").setAttribute("aria-selected", String(!diagTab));
    $("tab-diag").setAttribute("aria-selected", String(diagTab));
    $("tree-pane").hidden = diagTab;
    $("diag").hidden = !diagTab;
  }
  $("tab-tree").addEventListener("click", () => showTab(false));
  $("tab-diag").addEventListener("click", () => showTab(true));

  // --- keyboard ---------------------------------------------------------------------------------
  function step(delta) {
    const visible = sections.filter((s) => !rows.get(s.id).hidden);
    if (!visible.length) return;
    let i = visible.findIndex((s) => s.id === selected);
    i = i < 0 ? 0 : Math.min(visible.length - 1, Math.max(0, i + delta));
    select(visible[i].id, true);
  }
  document.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const typing = ev.target === $("filter");
    if (ev.key === "Escape" && typing) { $("filter").value = ""; $("filter").dispatchEvent(new Event("input")); $("filter").blur(); return; }
    if (typing) return;
    if (ev.key === "ArrowDown" || ev.key === "j") { step(1); ev.preventDefault(); }
    else if (ev.key === "ArrowUp" || ev.key === "k") { step(-1); ev.preventDefault(); }
    else if (ev.key === "/") { showTab(false); $("filter").focus(); ev.preventDefault(); }
  });

  const first = location.hash && byId.has(location.hash.slice(1)) ? location.hash.slice(1) : null;
  if (first) select(first, true);
  document.body.dataset.ready = "1";  // for tests and the time-to-first-render benchmark
})();
