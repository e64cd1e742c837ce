// 50 records through a Boost.Log asynchronous_sink over text_file_backend
// (auto_flush), then a normal return from main, with no flush.
#include <boost/log/core.hpp>
#include <boost/log/keywords/auto_flush.hpp>
#include <boost/log/keywords/file_name.hpp>
#include <boost/log/sinks/async_frontend.hpp>
#include <boost/log/sinks/text_file_backend.hpp>
#include <boost/log/trivial.hpp>
#include <boost/smart_ptr/make_shared_object.hpp>

int main() {
  namespace sinks = boost::log::sinks;
  namespace keywords = boost::log::keywords;
  auto backend = boost::make_shared<sinks::text_file_backend>(keywords::file_name = "app.log",
                                                              keywords::auto_flush = true);
  boost::log::core::get()->add_sink(
      boost::make_shared<sinks::asynchronous_sink<sinks::text_file_backend>>(backend));
  for (int i = 0; i < 50; ++i) BOOST_LOG_TRIVIAL(info) << "record " << i;
  return 0;
}
