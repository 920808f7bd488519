"""The player's tool reads its view straight from a saved report mail (.eml)."""

from __future__ import annotations

import subprocess

from tests.support.pbem_host import Host, at
from tests.support.run import pbem_text


def pbem(*args: str, env_vault: str) -> subprocess.CompletedProcess[str]:
    return pbem_text(*args, env={"PBEM_VAULT": env_vault})


def test_orders_new_and_depart_from_a_saved_report_mail(tmp_path):
    host = Host(tmp_path)
    host.run(at(1))  # the welcome mails go out, each with view.json attached
    welcome = next(p for p in (host.root / "sent-mail").glob("*.eml")
                   if b"algol@example.org" in p.read_bytes())
    vault = str(tmp_path / "vault.json")
    orders = tmp_path / "orders.yaml"
    done = pbem("orders", "new", "--view", str(welcome), "-o", str(orders), env_vault=vault)
    assert done.returncode == 0, done.stderr
    assert "power: algol" in orders.read_text() and "turn: 1" in orders.read_text()
    done = pbem("orders", "depart", str(orders), "--view", str(welcome), "--from", "Algol",
                "--to", "Hamal", "--ships", "3", env_vault=vault)
    assert done.returncode == 0, done.stderr
    assert "commitment:" in orders.read_text() and "Hamal" not in orders.read_text()


def test_a_mail_without_a_view_is_refused_clearly(tmp_path):
    mail = tmp_path / "other.eml"
    mail.write_text("From: a@example.org\nSubject: hello\n\nno attachment\n")
    done = pbem("orders", "new", "--view", str(mail), "-o", str(tmp_path / "o.yaml"),
                env_vault=str(tmp_path / "v.json"))
    assert done.returncode != 0
    assert "without a view.json attachment" in done.stderr
