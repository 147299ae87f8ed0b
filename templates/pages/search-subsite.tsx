// `/search/{subsite}/`: the search page with its scope shown and a way to drop it.
import type { SearchData, TemplateProps } from 'ir-site/templates';
import { SearchPage } from '../components/SearchPage.js';

export default function SearchSubsiteTemplate(props: TemplateProps<SearchData>) {
  return <SearchPage {...props} />;
}
