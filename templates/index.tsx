// The template registry: every TemplateId to its page component. The build bundles this
// file and renders `<Template {...props} />` into the body of its document shell; the
// browser runtime hydrates the same components.
import type { ComponentType } from 'react';
import type { TemplateId, TemplateProps } from '../src/shared/types.js';
import ArticleTemplate from './pages/article.js';
import BioTemplate from './pages/bio.js';
import ColumnTemplate from './pages/column.js';
import HomeTemplate from './pages/home.js';
import NotFoundTemplate from './pages/not-found.js';
import PageTemplate from './pages/page.js';
import PortfolioTemplate from './pages/portfolio.js';
import SearchSubsiteTemplate from './pages/search-subsite.js';
import SearchTemplate from './pages/search.js';
import SectionTemplate from './pages/section.js';
import TeamTemplate from './pages/team.js';

export const templates: Record<TemplateId, ComponentType<TemplateProps<any>>> = {
  home: HomeTemplate,
  section: SectionTemplate,
  page: PageTemplate,
  portfolio: PortfolioTemplate,
  team: TeamTemplate,
  column: ColumnTemplate,
  search: SearchTemplate,
  'search-subsite': SearchSubsiteTemplate,
  article: ArticleTemplate,
  bio: BioTemplate,
  'not-found': NotFoundTemplate,
};
