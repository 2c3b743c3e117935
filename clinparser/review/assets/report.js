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
  function boxOnPage(b, cls) {  // a box over its page, placed in % of the page (PDF points)
    const e = el("div", "box " + cls);
    const p = data.pages[b.page - 1];
    e.style.left = (100 * b.bbox[0] / p.w) + "%";
    e.style.top = (100 * b.bbox[1] / p.h) + "%";
    e.style.width = (100 * (b.bbox[2] - b.bbox[0]) / p.w) + "%";
    e.style.height = (100 * (b.bbox[3] - b.bbox[1]) / p.h) + "%";
    return e;
  }
  for (const b of data.boxes) {
    const div = pageDivs.get(b.page);
    if (!div || !b.bbox) continue;
    const e = boxOnPage(b, b.kind);
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
    clearItem();
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

  // --- the study definition (when the parse read one) ------------------------------------------
  const study = data.study;
  const items = new Map();      // study item id -> {item, what, li}
  const itemBoxes = new Map();  // study item id -> [box elements], lit only while it is selected
  let selectedItem = null;
  const CATEGORY = { inclusion: "Inclusion criteria", exclusion: "Exclusion criteria" };
  const ID_KIND = { nct: "NCT", sponsor: "Protocol no.", eudract: "EudraCT", eu_ct: "EU CT", ind: "IND", utn: "UTN" };

  function capital(t) { return t ? t.charAt(0).toUpperCase() + t.slice(1) : t; }
  function criterionName(c) {
    return capital(c.category || "criterion") + " criterion" + (c.identifier ? " " + c.identifier.replace(/[.)\]]+$/, "").replace(/^\[/, "") : "");
  }
  function pageOf(item) { return item.boxes.length ? item.boxes[0].page : item.pages[0]; }

  function drawItemBoxes(id, item, label) {
    for (const b of item.boxes) {
      const div = pageDivs.get(b.page);
      if (!div) continue;
      const e = boxOnPage(b, "study");
      e.title = label;
      e.dataset.item = id;
      if (!itemBoxes.has(id)) itemBoxes.set(id, []);
      itemBoxes.get(id).push(e);
      div.append(e);
    }
  }

  function studyItem(list, cls, id, item, what, parts) {
    const li = el("li", "item " + cls);
    li.dataset.item = id;
    for (const [c, t] of parts) if (t) li.append(el("span", c, t));
    const where = pagesLabel(item.pages);
    if (where) li.append(el("span", "where", where));
    li.addEventListener("click", (ev) => { ev.stopPropagation(); selectItem(id, true); });
    list.append(li);
    items.set(id, { item, what, li });
    drawItemBoxes(id, item, what);
    return li;
  }

  function pageEntry(list, label, text, page) {  // a fact with the page it was read on
    const li = el("li", "fact");
    li.append(el("span", "label", label), el("span", "txt", text));
    if (page != null) {
      li.append(el("span", "where", "p. " + page));
      li.classList.add("link");
      li.addEventListener("click", () => jumpTo({ page: page, section: null }));
    }
    list.append(li);
  }

  function buildStudy() {
    const pane = $("study");
    $("tab-study").hidden = false;
    $("n-study").textContent = "(" + (study.criteria.length + study.objectives.length + study.design.length) + ")";
    const block = (title) => { pane.append(el("h3", "", title)); const ol = el("ol"); pane.append(ol); return ol; };
    if (study.empty) pane.append(el("p", "none", "No study definition found."));
    if (study.titles.length || study.identifiers.length || study.phase || study.sponsor) {
      const ol = block("Identity");
      for (const t of study.titles) pageEntry(ol, capital(t.kind) + " title", t.text, t.page);
      for (const d of study.identifiers) pageEntry(ol, ID_KIND[d.kind] || d.kind.toUpperCase(), d.text, d.page);
      if (study.phase) pageEntry(ol, "Phase", (study.phase.value || "?") + (study.phase.printed ? " (printed “" + study.phase.printed + "”)" : ""), null);
      if (study.sponsor) pageEntry(ol, "Sponsor", study.sponsor.text, study.sponsor.page);
    }
    const categories = [...new Set(study.criteria.map((c) => c.category))]
      .sort((a, b) => (a === "inclusion" ? 0 : a === "exclusion" ? 1 : 2) - (b === "inclusion" ? 0 : b === "exclusion" ? 1 : 2));
    for (const cat of categories) {
      const group = study.criteria.filter((c) => c.category === cat);
      const ol = block((CATEGORY[cat] || capital(cat) + " criteria") + " (" + group.length + ")");
      ol.className = "criteria";
      const several = new Set(group.map((c) => c.section)).size > 1;
      let section = null;
      for (const c of group) {
        if (several && c.section !== section) ol.append(el("li", "sub", "section " + c.section));
        section = c.section;
        studyItem(ol, "criterion", c.id, c, criterionName(c),
          [["ident", c.identifier || "•"], ["txt", c.text], ["badge", c.applies_to ? "applies to " + c.applies_to : ""]]);
      }
    }
    if (study.objectives.length) {
      const ol = block("Objectives and endpoints (" + study.objectives.length + ")");
      for (const o of study.objectives) {
        const li = studyItem(ol, "objective", o.id, o, (o.label || capital(o.level)) + " objective",
          [["level", o.label || capital(o.level)], ["txt", o.text]]);
        if (!o.endpoints.length) continue;
        const sub = el("ol", "endpoints");
        for (const e of o.endpoints) {
          studyItem(sub, "endpoint", e.id, e, (e.label || capital(e.level)) + " endpoint",
            [["level", "endpoint · " + (e.label || capital(e.level))], ["txt", e.text]]);
        }
        li.after(sub);
      }
    }
    if (study.design.length) {  // one line per design item, grouped by part as the reader gives them
      const ol = block("Study design (" + study.design.length + ")");
      ol.className = "design";
      for (const d of study.design) {
        const head = d.text.indexOf(": ");  // "Arm: Placebo ..." shows "Placebo ..." beside its label
        studyItem(ol, "design", d.id, d, d.label, [["level", d.label], ["txt", head >= 0 ? d.text.slice(head + 2) : d.text]]);
      }
    }
    if (study.diagnostics.length) {
      const ol = block("Study diagnostics (" + study.diagnostics.length + ")");
      for (const d of study.diagnostics) {
        const li = el("li", "note");
        li.append(el("span", "kind", d.reader + " · " + d.kind.replace(/_/g, " ")), el("span", "", d.detail));
        ol.append(li);
      }
    }
  }

  function clearItem() {
    if (!selectedItem) return;
    for (const e of itemBoxes.get(selectedItem) || []) e.classList.remove("sel");
    items.get(selectedItem).li.classList.remove("active");
    selectedItem = null;
  }

  function showItem(it) {
    const c = $("content");
    c.replaceChildren();
    const item = it.item;
    c.append(el("h2", "", it.what));
    const where = /^[A-Z]?\d+(\.\d+)*\.?$/.test(item.section || "") ? "section " + item.section : item.section ? "under “" + item.section + "”" : "";
    const facts = [where, pagesLabel(item.pages)];
    if (item.applies_to) facts.push("applies to " + item.applies_to);
    if (!item.boxes.length) facts.push("no box on the page: shown by page");
    c.append(el("div", "meta", facts.filter(Boolean).join(" · ")));
    const body = el("div", "body");
    body.append(el("p", "study-text", item.text));
    if (item.printed && item.printed !== item.text) {  // a design item: the words it was read from
      const p = el("p", "study-text printed");
      p.append(el("strong", "", "As printed: "), item.printed);
      body.append(p);
    }
    for (const e of item.endpoints || []) {
      const p = el("p", "study-text endpoint");
      p.append(el("strong", "", (e.label || capital(e.level)) + " endpoint: "), e.text);
      body.append(p);
    }
    c.append(body);
    if (item.section_id && byId.has(item.section_id)) {
      const k = byId.get(item.section_id);
      const subs = el("div", "subs", "Read from: ");
      const a = el("a", "", ((k.number || "") + " " + k.title).trim());
      a.addEventListener("click", () => select(k.id, true));
      subs.append(a);
      c.append(subs);
    }
    c.scrollTop = 0;
  }

  function selectItem(id, scrollPages) {
    const it = items.get(id);
    if (!it) return;
    clearItem();
    if (selected) for (const e of boxesOf.get(selected) || []) e.classList.remove("sel");
    selectedItem = id;
    it.li.classList.add("active");
    it.li.scrollIntoView({ block: "nearest" });
    const lit = itemBoxes.get(id) || [];
    for (const e of lit) e.classList.add("sel");
    showItem(it);
    if (scrollPages) jumpTo({ page: pageOf(it.item), section: null });
    if (scrollPages && lit.length) lit[0].scrollIntoView({ block: "center" });
    history.replaceState(null, "", "#" + id);
  }

  if (study) buildStudy();

  const TABS = { tree: ["tab-tree", "tree-pane"], diag: ["tab-diag", "diag"], study: ["tab-study", "study"] };
  function showTab(name) {
    for (const [key, [tab, pane]] of Object.entries(TABS)) {
      $(tab).setAttribute("aria-selected", String(key === name));
      $(pane).hidden = key !== name;
    }
  }
  $("tab-tree").addEventListener("click", () => showTab("tree"));
  $("tab-diag").addEventListener("click", () => showTab("diag"));
  $("tab-study").addEventListener("click", () => showTab("study"));

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
    else if (ev.key === "/") { showTab("tree"); $("filter").focus(); ev.preventDefault(); }
  });

  const first = location.hash && byId.has(location.hash.slice(1)) ? location.hash.slice(1) : null;
  if (first) select(first, true);
  else if (location.hash && items.has(location.hash.slice(1))) { showTab("study"); selectItem(location.hash.slice(1), true); }
  document.body.dataset.ready = "1";  // for tests and the time-to-first-render benchmark
})();
