// A titled list of article cards: home (latest), section and column pages, bios.
import type { ArticleSummary } from 'ir-site/templates';
import { articleTypeLabel, formatDate, t, type Strings } from '../lib/i18n.js';

export function DateText({ date, strings, locale }: { date: string; strings: Strings; locale: string }) {
  return <time dateTime={date}>{formatDate(strings, date, locale)}</time>;
}

export function ArticleCard({ article, strings, locale }: { article: ArticleSummary; strings: Strings; locale: string }) {
  return (
    <li className="card">
      <article className="card__body">
        <p className="card__type">{articleTypeLabel(strings, article.type)}</p>
        <h3 className="card__title">
          <a href={article.path}>{article.title}</a>
        </h3>
        <p className="card__meta">
          <DateText date={article.date} strings={strings} locale={locale} />
        </p>
        {article.description && <p className="card__description">{article.description}</p>}
      </article>
    </li>
  );
}

export interface ArticleListProps {
  id: string;
  heading: string;
  articles: ArticleSummary[];
  strings: Strings;
  locale: string;
  /** Say so when there is nothing to list (section pages); otherwise render nothing. */
  showEmpty?: boolean;
}

export function ArticleList({ id, heading, articles, strings, locale, showEmpty = false }: ArticleListProps) {
  if (articles.length === 0 && !showEmpty) return null;
  return (
    <section className="article-list" aria-labelledby={id}>
      <h2 id={id}>{heading}</h2>
      {articles.length > 0 ? (
        <ul className="card-grid">
          {articles.map((article) => (
            <ArticleCard key={article.key} article={article} strings={strings} locale={locale} />
          ))}
        </ul>
      ) : (
        <p className="empty">{t(strings, 'section.empty')}</p>
      )}
    </section>
  );
}
