/* tables.js — sort and filter the site's big tables (those of class "sortable"), from file:// or
 * any static host, loading nothing else. Without it every table is whole, in its default order.
 *
 * Each header cell becomes a button: a click sorts the rows by that column, numbers as numbers
 * (the first number of a cell: "9.7 ± 0.2 cycles/byte" is 9.7), text in natural order, cells
 * without a value ("—", "no figure") last either way; a second click reverses it. The state is
 * the header's aria-sort. A filter box before the first such table keeps the rows of every such
 * table of the page whose text holds each word typed, and says how many it shows. */
(function () {
	"use strict";

	var NUMBER = /[-+−]?\d[\d\u2009\u202f,]*(?:\.\d+)?(?:[eE][-+]?\d+)?/;

	/* The sort key of a cell: a number, else its text in lower case, else null. */
	function key(cell, numeric) {
		var text = (cell ? cell.textContent : "").trim(), m;
		if (text === "" || text === "—" || text === "-" || text === "no figure")
			return null;
		if (numeric) {
			m = NUMBER.exec(text);
			if (!m)
				return null;
			return parseFloat(m[0].replace(/[\u2009\u202f,]/g, "").replace("−", "-"));
		}
		return text.toLowerCase();
	}

	/* Whether the column holds numbers: its header says so (class num), or most of its values
	 * begin with one. */
	function numericColumn(table, col) {
		var th = table.tHead.rows[0].cells[col], rows = table.tBodies[0].rows, i, n = 0, seen = 0;
		if (th.classList.contains("num"))
			return true;
		for (i = 0; i < rows.length; i++) {
			var k = key(rows[i].cells[col], false);
			if (k === null)
				continue;
			seen++;
			if (/^[-+−]?\d/.test(k))
				n++;
		}
		return seen > 0 && n * 2 > seen;
	}

	var collator = typeof Intl !== "undefined" ?
		new Intl.Collator(undefined, { numeric: true, sensitivity: "base" }) : null;

	function compare(a, b) {
		if (typeof a === "number")
			return a < b ? -1 : a > b ? 1 : 0;
		return collator ? collator.compare(a, b) : a < b ? -1 : a > b ? 1 : 0;
	}

	function sortBy(table, col, descending) {
		var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
		var numeric = numericColumn(table, col), heads = table.tHead.rows[0].cells, i;
		var keyed = rows.map(function (row, at) {
			return { row: row, at: at, key: key(row.cells[col], numeric) };
		});
		keyed.sort(function (x, y) {
			var c;
			if (x.key === null || y.key === null)
				c = x.key === null ? (y.key === null ? 0 : 1) : -1;
			else
				c = descending ? -compare(x.key, y.key) : compare(x.key, y.key);
			return c || x.at - y.at;
		});
		keyed.forEach(function (k) { body.appendChild(k.row); });
		for (i = 0; i < heads.length; i++)
			heads[i].removeAttribute("aria-sort");
		heads[col].setAttribute("aria-sort", descending ? "descending" : "ascending");
	}

	/* Each header cell's text becomes its sort button; one that holds a link keeps it, with a
	 * small button after it (a link inside a button is not allowed). */
	function makeSortable(table) {
		var heads = table.tHead.rows[0].cells, i;
		for (i = 0; i < heads.length; i++) {
			var th = heads[i], button = document.createElement("button");
			button.type = "button";
			button.className = "sort";
			if (th.querySelector("a")) {
				button.className = "sort sort-after";
				button.setAttribute("aria-label", "sort by " + th.textContent.trim());
				button.textContent = "⇅";
			} else {
				while (th.firstChild)
					button.appendChild(th.firstChild);
			}
			th.appendChild(button);
			button.addEventListener("click", (function (col, th) {
				return function () {
					sortBy(table, col, th.getAttribute("aria-sort") === "ascending");
				};
			})(i, th));
		}
	}

	function addFilter(tables) {
		var box = document.createElement("p"), label = document.createElement("label");
		var input = document.createElement("input"), count = document.createElement("span");
		var total = 0;
		tables.forEach(function (t) { total += t.tBodies[0].rows.length; });
		box.className = "filter";
		input.type = "search";
		input.id = "table-filter";
		label.htmlFor = input.id;
		label.textContent = "Filter the rows: ";
		count.setAttribute("aria-live", "polite");
		count.textContent = " " + total + " rows";
		box.appendChild(label);
		box.appendChild(input);
		box.appendChild(count);
		var wrap = tables[0].closest("div.table-wrap") || tables[0];
		wrap.parentNode.insertBefore(box, wrap);
		input.addEventListener("input", function () {
			var words = input.value.toLowerCase().split(/\s+/).filter(Boolean), shown = 0;
			tables.forEach(function (t) {
				Array.prototype.forEach.call(t.tBodies[0].rows, function (row) {
					var text = row.textContent.toLowerCase();
					var keep = words.every(function (w) { return text.indexOf(w) >= 0; });
					row.hidden = !keep;
					if (keep)
						shown++;
				});
			});
			count.textContent = words.length ? " " + shown + " of " + total + " rows" :
				" " + total + " rows";
		});
	}

	function start() {
		var tables = Array.prototype.filter.call(document.querySelectorAll("table.sortable"),
			function (t) { return t.tHead && t.tHead.rows.length && t.tBodies.length; });
		if (!tables.length)
			return;
		tables.forEach(makeSortable);
		addFilter(tables);
	}

	if (document.readyState === "loading")
		document.addEventListener("DOMContentLoaded", start);
	else
		start();
})();
