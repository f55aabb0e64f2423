// @ts-check
/**
 * Deterministic React artifacts for the benchmark, as a model would write them for the app's
 * React frame (src/components/artifacts/react-frame, tools/artifact-frame): a default-exported
 * component, react, lucide-react and recharts imported, Tailwind classes.
 *
 * - `bigDashboard()`: exactly 400 lines of TSX, a budget dashboard: useState and useMemo, eight
 *   sub-components (stat cards, a status badge, an area chart and a bar chart of recharts, budget
 *   bars, a toolbar, a table row, the table), lucide-react icons, and a table of ~100 transactions,
 *   all rendered (the rows fill the file up to 400 lines).
 * - `smallCounter()`: a few lines, a button that counts its clicks.
 */

/** The number of lines of `bigDashboard()`. */
export const bigDashboardLines = 400;

const payees = [
  'Northwind Traders',
  'Contoso Market',
  'City Transit',
  'Fabrikam Power',
  'Blue Yonder Air',
  'Tailspin Toys',
  'Adventure Works',
  'Litware Cloud',
  'Proseware Clinic',
  'Wide World Foods',
  'Coho Vineyard',
  'Lucerne Publishing',
];
const categories = ['Rent', 'Groceries', 'Transport', 'Utilities', 'Dining', 'Health', 'Travel', 'Software'];
const statuses = ['paid', 'paid', 'paid', 'pending', 'overdue'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A small deterministic generator (LCG), so every run gets the same text. @param {number} seed */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** @param {number} count */
function transactionLines(count) {
  const next = random(42);
  /** @param {readonly string[]} list */
  const pick = (list) => list[Math.floor(next() * list.length)] ?? '';
  return Array.from({ length: count }, (_, index) => {
    const month = 1 + Math.floor((index * 12) / count);
    const day = 1 + Math.floor(next() * 28);
    const category = pick(categories);
    const amount = category === 'Rent' ? 1450 : Math.round((8 + next() * 420) * 100) / 100;
    const date = `2025-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
    return (
      `  { id: ${index + 1}, date: '${date}', payee: '${pick(payees)}', category: '${category}', ` +
      `amount: ${amount}, status: '${pick(statuses)}' },`
    );
  });
}

function monthlyLines() {
  const next = random(7);
  return months.map((month) => {
    const income = 5200 + Math.round(next() * 900);
    const spending = 3600 + Math.round(next() * 1500);
    return `  { month: '${month}', income: ${income}, spending: ${spending} },`;
  });
}

const head = `import { useMemo, useState } from 'react';
import type { ComponentType } from 'react';
import { ArrowUpDown, CircleAlert, CircleCheck, Clock, PiggyBank, Search, TrendingDown, TrendingUp, Wallet } from 'lucide-react';
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

type Status = 'paid' | 'pending' | 'overdue';
type SortKey = 'date' | 'payee' | 'amount';

interface Transaction {
  id: number;
  date: string;
  payee: string;
  category: string;
  amount: number;
  status: Status;
}

interface MonthTotal {
  month: string;
  income: number;
  spending: number;
}

const CATEGORIES = ${JSON.stringify(categories).replaceAll('"', "'").replaceAll(',', ', ')};

const BUDGETS: Record<string, number> = { Rent: 17400, Groceries: 4800, Transport: 2400, Utilities: 3000, Dining: 2600, Health: 1800, Travel: 3500, Software: 1200 };

const TRANSACTIONS: Transaction[] = [`;

const middle = `];

const MONTHLY: MonthTotal[] = [`;

const body = `];

function formatMoney(value: number): string {
  return value.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}

function sumBy<T>(items: T[], pick: (item: T) => number): number {
  return items.reduce((total, item) => total + pick(item), 0);
}

function compare(a: Transaction, b: Transaction, key: SortKey): number {
  if (key === 'amount') return a.amount - b.amount;
  return a[key].localeCompare(b[key]);
}

interface StatCardProps {
  label: string;
  value: string;
  delta: number;
  icon: ComponentType<{ className?: string }>;
}

function StatCard({ label, value, delta, icon: Icon }: StatCardProps) {
  const up = delta >= 0;
  return (
    <div className="rounded-xl border border-gray-200 bg-white p-4 shadow-sm dark:border-gray-800 dark:bg-gray-900">
      <div className="flex items-center justify-between">
        <span className="text-sm text-gray-500">{label}</span>
        <Icon className="h-5 w-5 text-indigo-500" />
      </div>
      <p className="mt-2 text-2xl font-semibold tabular-nums">{value}</p>
      <p className={\`mt-1 flex items-center gap-1 text-xs \${up ? 'text-emerald-600' : 'text-rose-600'}\`}>
        {up ? <TrendingUp className="h-3 w-3" /> : <TrendingDown className="h-3 w-3" />}
        {Math.abs(delta).toFixed(1)}% from last month
      </p>
    </div>
  );
}

function StatusBadge({ status }: { status: Status }) {
  const styles: Record<Status, string> = {
    paid: 'bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300',
    pending: 'bg-amber-50 text-amber-700 dark:bg-amber-950 dark:text-amber-300',
    overdue: 'bg-rose-50 text-rose-700 dark:bg-rose-950 dark:text-rose-300',
  };
  const Icon = status === 'paid' ? CircleCheck : status === 'pending' ? Clock : CircleAlert;
  return (
    <span className={\`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium \${styles[status]}\`}>
      <Icon className="h-3 w-3" />
      {status}
    </span>
  );
}

function SpendingChart({ data }: { data: MonthTotal[] }) {
  return (
    <section className="rounded-xl border border-gray-200 p-4 dark:border-gray-800">
      <h2 className="mb-3 text-sm font-semibold">Income and spending</h2>
      <div className="h-60">
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart data={data} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
            <XAxis dataKey="month" fontSize={12} />
            <YAxis fontSize={12} width={48} />
            <Tooltip formatter={(value) => formatMoney(Number(value))} />
            <Area type="monotone" dataKey="income" stroke="#10b981" fill="#d1fae5" />
            <Area type="monotone" dataKey="spending" stroke="#6366f1" fill="#e0e7ff" />
          </AreaChart>
        </ResponsiveContainer>
      </div>
    </section>
  );
}

function BudgetBars({ transactions }: { transactions: Transaction[] }) {
  return (
    <section className="space-y-3 rounded-xl border border-gray-200 p-4 dark:border-gray-800">
      <h2 className="flex items-center gap-2 text-sm font-semibold">
        <PiggyBank className="h-4 w-4 text-indigo-500" /> Budgets
      </h2>
      {CATEGORIES.map((category) => {
        const spent = sumBy(transactions.filter((t) => t.category === category), (t) => t.amount);
        const budget = BUDGETS[category] ?? 1;
        const share = Math.min(100, (spent / budget) * 100);
        return (
          <div key={category}>
            <div className="flex justify-between text-xs">
              <span>{category}</span>
              <span className="tabular-nums text-gray-500">{formatMoney(spent)} of {formatMoney(budget)}</span>
            </div>
            <div className="mt-1 h-2 rounded-full bg-gray-100 dark:bg-gray-800">
              <div className={\`h-2 rounded-full \${share > 90 ? 'bg-rose-500' : 'bg-indigo-500'}\`} style={{ width: \`\${share}%\` }} />
            </div>
          </div>
        );
      })}
    </section>
  );
}

interface ToolbarProps {
  query: string;
  onQuery: (query: string) => void;
  category: string;
  onCategory: (category: string) => void;
  status: Status | 'all';
  onStatus: (status: Status | 'all') => void;
}

function Toolbar({ query, onQuery, category, onCategory, status, onStatus }: ToolbarProps) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="relative flex-1">
        <Search className="absolute top-2.5 left-2 h-4 w-4 text-gray-400" />
        <input value={query} onChange={(event) => onQuery(event.target.value)} placeholder="Search payees" className="w-full rounded-lg border border-gray-300 py-2 pr-3 pl-8 text-sm" />
      </label>
      <select value={category} onChange={(event) => onCategory(event.target.value)} className="rounded-lg border border-gray-300 px-2 py-2 text-sm">
        <option value="all">All categories</option>
        {CATEGORIES.map((name) => (
          <option key={name} value={name}>{name}</option>
        ))}
      </select>
      {(['all', 'paid', 'pending', 'overdue'] as const).map((value) => (
        <button key={value} type="button" onClick={() => onStatus(value)} className={\`rounded-lg px-2 py-1 text-xs \${value === status ? 'bg-indigo-600 text-white' : 'bg-gray-100'}\`}>
          {value}
        </button>
      ))}
    </div>
  );
}

interface RowProps {
  transaction: Transaction;
  selected: boolean;
  onToggle: (id: number) => void;
}

function TransactionRow({ transaction, selected, onToggle }: RowProps) {
  return (
    <tr className={selected ? 'bg-indigo-50 dark:bg-indigo-950' : 'hover:bg-gray-50 dark:hover:bg-gray-900'}>
      <td className="px-3 py-2">
        <input type="checkbox" checked={selected} onChange={() => onToggle(transaction.id)} />
      </td>
      <td className="px-3 py-2 text-gray-500 tabular-nums">{transaction.date}</td>
      <td className="px-3 py-2 font-medium">{transaction.payee}</td>
      <td className="px-3 py-2">{transaction.category}</td>
      <td className="px-3 py-2 text-right tabular-nums">{formatMoney(transaction.amount)}</td>
      <td className="px-3 py-2">
        <StatusBadge status={transaction.status} />
      </td>
    </tr>
  );
}

interface TableProps {
  rows: Transaction[];
  selected: Set<number>;
  onToggle: (id: number) => void;
  onSort: (key: SortKey) => void;
}

function TransactionTable({ rows, selected, onToggle, onSort }: TableProps) {
  const header = (key: SortKey, label: string) => (
    <th className="px-3 py-2 text-left font-medium">
      <button type="button" onClick={() => onSort(key)} className="inline-flex items-center gap-1">
        {label} <ArrowUpDown className="h-3 w-3" />
      </button>
    </th>
  );
  return (
    <div className="overflow-x-auto rounded-xl border border-gray-200 dark:border-gray-800">
      <table className="w-full text-sm">
        <thead className="bg-gray-50 text-xs text-gray-500 uppercase dark:bg-gray-900">
          <tr>
            <th className="w-8 px-3 py-2" />
            {header('date', 'Date')}
            {header('payee', 'Payee')}
            <th className="px-3 py-2 text-left font-medium">Category</th>
            {header('amount', 'Amount')}
            <th className="px-3 py-2 text-left font-medium">Status</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100 dark:divide-gray-800">
          {rows.map((transaction) => (
            <TransactionRow key={transaction.id} transaction={transaction} selected={selected.has(transaction.id)} onToggle={onToggle} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function BigDashboard() {
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState('all');
  const [status, setStatus] = useState<Status | 'all'>('all');
  const [sortKey, setSortKey] = useState<SortKey>('date');
  const [descending, setDescending] = useState(true);
  const [selected, setSelected] = useState<Set<number>>(() => new Set());

  const rows = useMemo(() => {
    const needle = query.trim().toLowerCase();
    const kept = TRANSACTIONS.filter(
      (t) =>
        (needle === '' || t.payee.toLowerCase().includes(needle)) &&
        (category === 'all' || t.category === category) &&
        (status === 'all' || t.status === status),
    );
    const sorted = [...kept].sort((a, b) => compare(a, b, sortKey));
    return descending ? sorted.reverse() : sorted;
  }, [query, category, status, sortKey, descending]);

  const income = sumBy(MONTHLY, (m) => m.income);
  const spending = sumBy(TRANSACTIONS, (t) => t.amount);
  const overdue = TRANSACTIONS.filter((t) => t.status === 'overdue');

  const sort = (key: SortKey) => {
    if (key === sortKey) setDescending((value) => !value);
    else setSortKey(key);
  };
  const toggle = (id: number) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="min-h-screen space-y-4 bg-gray-50 p-4 text-gray-900 dark:bg-gray-950 dark:text-gray-100">
      <header className="flex items-center gap-2">
        <Wallet className="h-6 w-6 text-indigo-500" />
        <h1 className="text-xl font-bold">Budget dashboard</h1>
      </header>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard label="Income" value={formatMoney(income)} delta={4.2} icon={TrendingUp} />
        <StatCard label="Spending" value={formatMoney(spending)} delta={-2.8} icon={TrendingDown} />
        <StatCard label="Saved" value={formatMoney(income - spending)} delta={6.1} icon={PiggyBank} />
        <StatCard label="Overdue" value={String(overdue.length)} delta={-1.5} icon={CircleAlert} />
      </div>
      <SpendingChart data={MONTHLY} />
      <BudgetBars transactions={TRANSACTIONS} />
      <Toolbar query={query} onQuery={setQuery} category={category} onCategory={setCategory} status={status} onStatus={setStatus} />
      <p className="text-xs text-gray-500">{rows.length} transactions, {selected.size} selected</p>
      <TransactionTable rows={rows} selected={selected} onToggle={toggle} onSort={sort} />
    </div>
  );
}`;

/**
 * The 400-line dashboard: the transactions fill what the rest leaves of the 400 lines.
 * @returns {{ code: string, rows: number }}
 */
export function bigDashboard() {
  const monthly = monthlyLines();
  const fixed = [head, middle, body].join('\n').split('\n').length + monthly.length;
  const rows = bigDashboardLines - fixed;
  if (rows < 80 || rows > 120) throw new Error(`bigDashboard: ${rows} rows would fill 400 lines`);
  const code = [head, ...transactionLines(rows), middle, ...monthly, body].join('\n');
  const lines = code.split('\n').length;
  if (lines !== bigDashboardLines) throw new Error(`bigDashboard: ${lines} lines, not ${bigDashboardLines}`);
  return { code, rows };
}

/** A small React artifact: a button counting its clicks ('Count: 0' until clicked). */
export function smallCounter() {
  return `import { useState } from 'react';
import { Plus } from 'lucide-react';

export default function Counter() {
  const [count, setCount] = useState(0);
  return (
    <div className="p-4">
      <button
        type="button"
        onClick={() => setCount((value) => value + 1)}
        className="inline-flex items-center gap-2 rounded-lg bg-indigo-600 px-3 py-2 text-white"
      >
        <Plus className="h-4 w-4" /> Count: {count}
      </button>
    </div>
  );
}`;
}
