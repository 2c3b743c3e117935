"""The study design said in words, one line per item.

``study.design`` is data; a retriever and a reviewer need it as sentences. Each traced item
(an arm, an epoch, an intervention, a population fact, the design's kind, the indication, an
amendment) gives one ``DesignLine``: its part, a short label ("Arm", "Planned enrollment"), the
line of text, and the item itself with its pages, boxes and section. The retrieval chunk
(``export/chunks.py``) and the review page's Study tab (``review/report.py``) both read these,
so the two say the design the same way. Nothing is added that the design does not hold: an
item that is null gives no line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

# The design's parts in the order the lines come, as the Study tab groups them.
PARTS = ("design", "population", "arm", "epoch", "intervention", "indication", "amendment")


@dataclass(frozen=True)
class DesignLine:
    part: str  # one of PARTS
    label: str  # "Arm", "Masking", "Amendment 2"
    text: str  # the line: "Arm: Placebo (placebo comparator); receives Placebo"
    item: dict  # the design item it says (pages, boxes, section, printed)


def _plain(text: object) -> str:
    return " ".join(str(text).split())


def _age(age: dict) -> str:
    low, high, unit = age.get("min"), age.get("max"), age.get("unit") or "years"
    number = lambda v: f"{v:g}" if isinstance(v, float) else str(v)  # noqa: E731 - 18.0 -> "18"
    if low is not None and high is not None:
        return f"{number(low)} to {number(high)} {unit}"
    if low is not None:
        return f"at least {number(low)} {unit}"
    return f"at most {number(high)} {unit}" if high is not None else ""


def _intervention(item: dict) -> str:
    facts = [f"role {item['role']}" if item.get("role") else ""]
    doses = [_plain(d.get("printed") or f"{d.get('value')} {d.get('unit')}") for d in item.get("doses") or []]
    facts += [
        f"dose {', '.join(doses)}" if doses else "",
        f"route {item['route']}" if item.get("route") else "",
        f"frequency {_plain(item['frequency'])}" if item.get("frequency") else "",
    ]
    facts = [f for f in facts if f]
    return _plain(item["name"]) + (f" ({'; '.join(facts)})" if facts else "")


def _kind_lines(design: dict) -> list[DesignLine]:
    out = []
    for key, label in (
        ("allocation", "Allocation"),
        ("model", "Model"),
        ("masking", "Masking"),
        ("ratio", "Randomization ratio"),
    ):
        item = design.get(key)
        if item and item.get("value") not in (None, ""):
            out.append(DesignLine("design", label, f"{label}: {_plain(item['value'])}", item))
    return out


def _population_lines(population: Optional[dict]) -> list[DesignLine]:
    population = population or {}
    out = []
    enrollment = population.get("planned_enrollment")
    if enrollment and enrollment.get("value") is not None:
        out.append(
            DesignLine(
                "population",
                "Planned enrollment",
                f"Planned enrollment: {enrollment['value']} participants",
                enrollment,
            )
        )
    age = population.get("age")
    if age and _age(age):
        out.append(DesignLine("population", "Age", f"Age: {_age(age)}", age))
    sex = population.get("sex")
    if sex and sex.get("value"):
        shown = {"both": "female and male"}.get(sex["value"], sex["value"])
        out.append(DesignLine("population", "Sex", f"Sex: {shown}", sex))
    healthy = population.get("healthy_volunteers")
    if healthy and healthy.get("value") is not None:
        out.append(
            DesignLine(
                "population",
                "Healthy volunteers",
                f"Healthy volunteers: {'yes' if healthy['value'] else 'no'}",
                healthy,
            )
        )
    return out


def _arm_line(arm: dict) -> DesignLine:
    text = f"Arm: {_plain(arm['name'])}" + (f" ({arm['type']})" if arm.get("type") else "")
    if arm.get("interventions"):
        text += f"; receives {', '.join(_plain(n) for n in arm['interventions'])}"
    return DesignLine("arm", "Arm", text, arm)


def _amendment_line(amendment: dict) -> DesignLine:
    label = f"Amendment {_plain(amendment['number'])}" if amendment.get("number") else "Amendment"
    text = label + (f", {amendment['date']}" if amendment.get("date") else "")
    if amendment.get("summary"):
        text += f": {_plain(amendment['summary'])}"
    return DesignLine("amendment", label, text, amendment)


def design_lines(design: Optional[dict]) -> list[DesignLine]:
    """Every item of ``design`` (document.json's ``study.design``) as a line, in ``PARTS`` order
    and, within a part, in the design's order; [] for no design."""
    if not design:
        return []
    lines = _kind_lines(design) + _population_lines(design.get("population"))
    lines += [_arm_line(a) for a in design.get("arms") or []]
    epochs = design.get("epochs") or []
    lines += [
        DesignLine("epoch", f"Epoch {k}", f"Epoch {k} of {len(epochs)}: {_plain(e['name'])}", e)
        for k, e in enumerate(epochs, start=1)
    ]
    lines += [
        DesignLine("intervention", "Intervention", f"Intervention: {_intervention(i)}", i)
        for i in design.get("interventions") or []
    ]
    indication = design.get("indication")
    if indication and indication.get("value"):
        lines.append(DesignLine("indication", "Indication", f"Indication: {_plain(indication['value'])}", indication))
    lines += [_amendment_line(a) for a in design.get("amendments") or []]
    return lines


def main_section(lines: list[DesignLine]) -> Optional[str]:
    """The section most of the design was read from (the design or synopsis section), the first
    such in line order on a tie; None when no line names one."""
    sections = [line.item.get("section") for line in lines if line.item.get("section")]
    return max(dict.fromkeys(sections), key=sections.count) if sections else None
